// Trace files in the lab: a version 1 trace still opens (the world drawn, the controller's numbers
// unknown), a version 2 trace shows the controller's numbers, and a trace of the wrong shape gets
// a message naming the field, never a blank page.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';
import type { Trace } from '../../sim/trace';
import { controllerOf } from '../../sim/trace';
import { ROOT, useLabPage, withChromium } from './harness';

const V1_FIXTURE = join(ROOT, 'test/trace/fixtures/talk-lab.v1.json');

withChromium.describe('trace files in the lab (chromium)', () => {
  const lab = useLabPage();
  const { text } = lab;
  /** The element's text once it matches (a file is read asynchronously: the old message may still show). */
  const textMatching = async (id: string, re: RegExp) => {
    for (let i = 0; i < 50 && !re.test(await text(id)); i++) await lab.page.waitForTimeout(100);
    return text(id);
  };
  const load = async (name: string, body: string) => {
    await lab.page.getByTestId('trace-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(body) });
  };
  const openHome = async () => {
    await lab.page.goto(`${lab.base}?loop=incus-hpa`);
    await lab.page.getByTestId('trace-file').waitFor({ state: 'attached' });
  };

  it('a version 1 trace opens: pods from the world, no average (the controller was not recorded)', async () => {
    await openHome();
    await load('talk-lab.v1.json', readFileSync(V1_FIXTURE, 'utf8'));
    await lab.page.waitForSelector('[data-testid="lab"][data-source="trace"]');
    expect(await text('frame-index')).toBe('1/40');
    for (let i = 0; i < 40 && (await text('pods-running')) !== '3'; i++) await lab.page.getByTestId('btn-step').click();
    expect(await text('pods-running')).toBe('3');
    expect(await lab.page.getByTestId('pod').count()).toBe(3);
    expect(await lab.page.getByTestId('avg').count()).toBe(0);
  });

  it("a version 2 trace shows the controller's average, the one the CLI prints", async () => {
    const { runner } = runnerFor(join(ROOT, 'scenarios/talk-lab.yaml'));
    runner.run(90_000);
    const trace = runner.trace();
    await openHome();
    await load('talk-lab.json', JSON.stringify(trace));
    await lab.page.waitForSelector('[data-testid="lab"][data-source="trace"]');
    const first = controllerOf(trace.frames[0]!, 'incus-hpa')!;
    expect(await text('avg')).toBe(`${first.averagePercent}%`);
  });

  it('a trace of the wrong shape (its controller or its world): refused with the field named', async () => {
    const { runner } = runnerFor(join(ROOT, 'scenarios/talk-lab.yaml'));
    runner.run(60_000);
    const trace = JSON.parse(JSON.stringify(runner.trace())) as Trace;
    await openHome();
    await load('nomad.json', JSON.stringify({ ...trace, loop: 'nomad' }));
    expect(await text('trace-error')).toMatch(/^Not a loopscope trace: loop: expected one of cron, puppet, /);
    const badController = {
      ...trace,
      frames: trace.frames.map((f, i) => (i === 2 ? { ...f, controller: { ...f.controller, threshold: 'high' } } : f)),
    };
    await load('bad-controller.json', JSON.stringify(badController));
    expect(await textMatching('trace-error', /frames\.2/)).toMatch(/^Not a loopscope trace: frames\.2\.controller\.threshold: /);

    // A world object of another shape is refused too: a trace's world is read through its loop's schema.
    const odd = { ...trace, frames: trace.frames.map((f, i) => (i === 0 ? { ...f, world: { pods: 5 } } : f)) };
    await load('odd-world.json', JSON.stringify(odd));
    expect(await textMatching('trace-error', /frames\.0\.world/)).toMatch(/^Not a loopscope trace: frames\.0\.world\.demand: /);
  });

  it('made no other console errors', () => {
    expect(lab.seen.errors).toEqual([]);
  });
});
