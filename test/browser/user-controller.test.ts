// A user's controller in the lab: the planted bug's counterexample (a sandboxed module) and a run
// with a real Metacontroller webhook (python3 on loopback) load as traces, step to the end, and
// show the Kubernetes world with no view error.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkScenario } from '../../sim/check/check';
import { loadScenario, runnerFor } from '../../sim/loops';
import type { Trace } from '../../sim/trace';
import { requires } from '../prerequisites';
import { ROOT, useLabPage, withChromium } from './harness';

const withPython = await requires('python3');

withChromium.describe("a user controller's traces open in the lab (chromium)", () => {
  const lab = useLabPage();
  const { text } = lab;

  async function open(trace: Trace, marked: boolean) {
    await lab.page.goto(`${lab.base}?loop=kubernetes`);
    await lab.page.getByTestId('trace-file').waitFor({ state: 'attached' });
    await lab.page
      .getByTestId('trace-file')
      .setInputFiles({ name: 'user.trace.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(trace)) });
    await lab.page.waitForSelector('[data-testid="lab"][data-source="trace"]');
    expect(await text('frame-index')).toBe(`1/${trace.frames.length}`);
    // Step through the whole trace (a step goes to the next phase: one or more frames).
    for (let i = 1; i < trace.frames.length && !(await text('frame-index')).startsWith(`${trace.frames.length}/`); i++) {
      await lab.page.getByTestId('btn-step').click();
    }
    expect(await text('frame-index')).toBe(`${trace.frames.length}/${trace.frames.length}`);
    if (marked) expect(await lab.page.locator('body').innerText()).toContain('one-pod');
    const viewErrors = await lab.page.getByTestId('view-error').allInnerTexts();
    expect(viewErrors).toEqual([]);
    expect(lab.seen.errors).toEqual([]);
  }

  it("the module's counterexample (examples/podservice/check-buggy.yaml)", async () => {
    const { entry, scenario } = loadScenario(`${ROOT}/examples/podservice/check-buggy.yaml`);
    const c = checkScenario(entry, scenario).counterexamples.find((x) => x.property === 'one-pod');
    expect(c).toBeDefined();
    await open(c!.trace, true);
  }, 120_000);

  withPython.it(
    'a run with the Python sync hook (examples/metacontroller)',
    async () => {
      const hook = spawn('python3', [`${ROOT}/examples/metacontroller/sync.py`, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        const port = await new Promise<string>((ok) => createInterface({ input: hook.stdout! }).once('line', ok));
        const file = join(mkdtempSync(join(tmpdir(), 'loopscope-lab-hook-')), 'hook.yaml');
        writeFileSync(
          file,
          readFileSync(`${ROOT}/examples/metacontroller/check.yaml`, 'utf8').replace(
            'http://127.0.0.1:8731/sync',
            `http://127.0.0.1:${port.trim()}/sync`,
          ),
        );
        const { runner, scenario } = runnerFor(file);
        runner.run(scenario.durationMs);
        await open(runner.trace(), false);
      } finally {
        hook.kill();
      }
    },
    120_000,
  );
});
