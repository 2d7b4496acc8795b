// Bad input never blanks the lab: every bad URL parameter gets a visible sentence
// naming it and the page opens what it can; a bad trace is refused with the field named; an
// intervention while scrubbed back forks the run there and says so. Also: the banner as rendered,
// and a scenario opened from a scrolled home page starts at the top.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';
import type { Trace } from '../../sim/trace';
import { ROOT, useLabPage, withChromium } from './harness';

withChromium.describe('bad input, forks and the banner (chromium)', () => {
  const lab = useLabPage();
  const { text, machineId } = lab;
  const goto = async (query: string) => {
    await lab.page.goto(`${lab.base}${query}`, { timeout: 170_000 });
    await lab.page.getByTestId('app').waitFor({ timeout: 170_000 });
  };
  const frames = async () => Number((await text('frame-index')).split('/')[0]);

  it('every bad URL parameter is named in a visible message; the lab opens what it can and works', async () => {
    lab.page.setDefaultTimeout(60_000);
    // An unknown policy: said so, the scenario's own policy runs, and Step moves.
    await goto('?scenario=talk-lab&policy=bogus');
    expect(await text('url-problems')).toMatch(/policy=bogus: no such policy \(expected one of seed, kubernetes/);
    await lab.page.getByTestId('lab').waitFor();
    const before = await frames();
    await lab.page.getByTestId('btn-step').click();
    expect(await frames()).toBeGreaterThan(before);
    expect(lab.page.url()).not.toContain('policy=bogus');
    // t as a duration works; t=90000.5 is refused (not silently 0); seed, lang, loop, presenter named.
    await goto('?scenario=talk-lab&t=1m30s');
    expect(await text('time')).toBe('1:30');
    expect(await lab.page.getByTestId('url-problems').count()).toBe(0);
    await goto('?scenario=talk-lab&t=90000.5&seed=x1&lang=fr&presenter=yes&loop=cron');
    const problems = await text('url-problems');
    expect(problems).toMatch(/t=90000\.5: expected a time as whole ms \(90000\), a duration \(1m30s, 90s\) or m:ss/);
    expect(problems).toMatch(/seed=x1: expected a whole number/);
    expect(problems).toMatch(/lang=fr: expected one of en, pt-BR/);
    expect(problems).toMatch(/presenter=yes: expected 1/);
    expect(problems).toMatch(/loop=cron: scenario talk-lab belongs to incus-hpa/);
    expect(await lab.page.getByTestId('lab').getAttribute('data-loop')).toBe('incus-hpa');
    expect(await text('time')).toBe('0:00');
    // Past the end: shown at the end, and said so.
    await goto('?scenario=flapping&t=99h');
    expect(await text('url-problems')).toMatch(/after the scenario's end/);
    // An unknown scenario or loop: the message, and the home page (not a blank page).
    await goto('?scenario=nope&loop=nomad');
    expect(await text('url-problems')).toMatch(/loop=nomad: no such loop[\s\S]*scenario=nope: no such scenario/);
    await lab.page.getByTestId('home').waitFor();
    await lab.page.getByTestId('url-problems-dismiss').click();
    expect(await lab.page.getByTestId('url-problems').count()).toBe(0);
  }, 240_000);

  it('a trace naming a state its machine does not have is refused with the frame named; a bad world is drawn as a message in its panel only', async () => {
    const { runner } = runnerFor(join(ROOT, 'scenarios/talk-lab.yaml'));
    runner.run(30_000);
    const trace = JSON.parse(JSON.stringify(runner.trace())) as Trace;
    await goto('?loop=incus-hpa');
    const load = (name: string, body: unknown) =>
      lab.page
        .getByTestId('trace-file')
        .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) });
    await load('bogus-state.json', { ...trace, frames: trace.frames.map((f, i) => (i === 3 ? { ...f, state: 'dancing' } : f)) });
    expect(await text('trace-error')).toMatch(/frames\.3\.state: "dancing" is not a state of incus-hpa \(expected one of /);
    await load('not-json.json', '{');
    await lab.page.waitForFunction(() => /malformed JSON/.test(document.querySelector('[data-testid="trace-error"]')?.textContent ?? ''));
    // A controller or a world of the wrong shape fails the schema (a trace's world is read as its loop's summary).
    await load('odd-world.json', { ...trace, frames: trace.frames.map((f) => ({ ...f, world: { pods: 'many' } })) });
    await lab.page.waitForFunction(() =>
      /frames\.0\.world\.demand: /.test(document.querySelector('[data-testid="trace-error"]')?.textContent ?? ''),
    );
  }, 120_000);

  it('an intervention while scrubbed back forks the run from that moment and says so', async () => {
    await goto('?scenario=talk-lab&t=300000');
    await lab.page.getByTestId('lab').waitFor();
    expect(await text('time')).toBe('5:00');
    // Back to the first frame at or after 0:45.
    const { runner } = runnerFor(join(ROOT, 'scenarios/talk-lab.yaml'));
    runner.run(300_000);
    const index = runner.frames.findIndex((f) => f.t >= 45_000);
    await lab.page.getByTestId('scrubber').fill(String(index));
    expect(await lab.page.getByTestId('viewing-past').count()).toBe(1);
    const moment = await text('time');
    await lab.page.getByTestId('fault-kill').click();
    expect(await text('fork-notice')).toMatch(new RegExp(`Forked the run at ${moment}: .*\\(it ran to 5:00\\)`));
    expect(await text('time')).toBe(moment);
    expect(await machineId('event')).toBe('world.inject');
    expect(await frames()).toBe(index + 2);
    expect(await lab.page.getByTestId('viewing-past').count()).toBe(0);
  }, 120_000);

  it("the banner shows the controller's lines (never an older cycle's note); a scenario opened from a scrolled home page starts at the top", async () => {
    await goto('?scenario=cron-normal&t=240000');
    await lab.page.getByTestId('lab').waitFor();
    expect(await text('phase-banner')).not.toMatch(/crond started/);
    await goto('?scenario=cron-kubernetes&t=240000');
    await lab.page.getByTestId('lab').waitFor();
    expect(await text('decision')).toBe('nothing due at 2026-05-01 00:04');
    await goto('?scenario=kubernetes-replicaset&t=95');
    await lab.page.getByTestId('lab').waitFor();
    expect(await text('compared')).toMatch(/^ReplicaSet web: \d+\/3 pods exist, \d+\/3 ready$/);
    // Home, scrolled down, then open a scenario: the banner is on screen.
    await lab.page.setViewportSize({ width: 1000, height: 500 });
    await goto('');
    await lab.page.getByTestId('home').waitFor();
    await lab.page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    expect(await lab.page.evaluate('window.scrollY')).toBeGreaterThan(0);
    await lab.page.getByTestId('open-talk-lab').click();
    await lab.page.getByTestId('lab').waitFor();
    expect(await lab.page.evaluate('window.scrollY')).toBe(0);
    await lab.page.setViewportSize({ width: 1400, height: 900 });
  }, 120_000);

  it("made no console errors (other than the boundaries' own reports above)", () => {
    expect(lab.seen.errors).toEqual([]);
  });
});
