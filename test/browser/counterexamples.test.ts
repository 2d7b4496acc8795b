// A counterexample of every loop, found by the explorer, loads in the lab and steps to the frame
// that breaks the claim (the one `loopscope check --out` marks with ✗).
import { expect, it } from 'vitest';
import { checkScenario } from '../../sim/check/check';
import { LOOP_IDS, loadScenario } from '../../sim/loops';
import type { LoopId } from '../../sim/loops';
import { ROOT, useLabPage, withChromium } from './harness';

/** One small check scenario per loop whose search finds a counterexample (and the policy that shows it). */
const FINDINGS: Record<LoopId, { file: string; policy?: string }> = {
  'incus-hpa': { file: 'scenarios/incus-hpa-check-small.yaml', policy: 'seed' },
  'systemd-restart': { file: 'scenarios/systemd-restart-check-start-limit.yaml' },
  cron: { file: 'scenarios/cron-check-cronjob-outage.yaml' },
  puppet: { file: 'scenarios/puppet-check-lost-refresh.yaml' },
  terraform: { file: 'scenarios/terraform-check-orphan-name.yaml' },
  kubernetes: { file: 'scenarios/kubernetes-check-replicaset-no-expectations.yaml' },
};

withChromium.describe("every loop's counterexample opens in the lab (chromium)", () => {
  const lab = useLabPage();
  const { text } = lab;

  for (const loop of LOOP_IDS) {
    it(
      loop,
      async () => {
        const { file, policy } = FINDINGS[loop];
        const { entry, scenario } = loadScenario(`${ROOT}/${file}`);
        const run = checkScenario(entry, scenario, policy ? { policy } : {});
        const found = run.counterexamples[0];
        expect(found, `${file}: a counterexample`).toBeDefined();
        const { trace } = found!;
        const broken = trace.frames.findIndex((f) => f.note?.includes('✗'));
        expect(broken).toBeGreaterThan(-1);

        await lab.page.goto(`${lab.base}?loop=${loop}`);
        await lab.page.getByTestId('trace-file').waitFor({ state: 'attached' });
        await lab.page
          .getByTestId('trace-file')
          .setInputFiles({ name: `${loop}.trace.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(trace)) });
        await lab.page.waitForSelector('[data-testid="lab"][data-source="trace"]');
        expect(await text('frame-index')).toBe(`1/${trace.frames.length}`);
        // Step until the marked frame: the lab walks the counterexample phase by phase.
        for (let i = 0; i < trace.frames.length && Number((await text('frame-index')).split('/')[0]) - 1 < broken; i++) {
          await lab.page.getByTestId('btn-step').click();
        }
        expect(Number((await text('frame-index')).split('/')[0]) - 1).toBeGreaterThanOrEqual(broken);
        expect(await lab.page.getByTestId('view-error').count()).toBe(0);
        expect(lab.seen.errors).toEqual([]);
      },
      120_000,
    );
  }
});
