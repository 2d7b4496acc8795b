import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runnerFor } from '../../sim/loops';
import { translateNote } from '../../web/i18n/notes';
import { eventPhrase } from '../../web/statechart/labels';
import { englishIn } from '../browser/english';

const ROOT = join(import.meta.dirname, '../..');

/** Every shipped scenario the lab opens as a demo (the model checker's *-check-* ones are environments, not runs). */
const SCENARIOS = readdirSync(join(ROOT, 'scenarios'))
  .filter((f) => f.endsWith('.yaml') && !f.includes('-check-') && f !== 'hpa.yaml')
  .sort();

/**
 * In pt-BR every note of every frame is Portuguese, or real tool output marked as such (verbatim: the lab
 * renders it lang="en"). The fallback for a note no rule knows is unmarked English, so a new sentence
 * loopscope writes fails here until web/i18n/notes.ts translates it (or says whose output it quotes).
 */
describe('every note of every shipped scenario in pt-BR (web/i18n/notes.ts)', () => {
  it('is translated, or marked as quoted tool output; every event reads in words', () => {
    const left = new Map<string, string>();
    const events = new Set<string>();
    for (const file of SCENARIOS) {
      const { entry, runner, scenario } = runnerFor(join(ROOT, 'scenarios', file));
      runner.run(scenario.durationMs);
      for (const frame of runner.frames) {
        if (eventPhrase(entry.id, frame.event, 'pt-BR') === frame.event) events.add(`${entry.id}: ${frame.event}`);
        if (!frame.note) continue;
        const prose = translateNote(entry.id, frame, 'pt-BR')
          .filter((p) => !p.verbatim)
          .map((p) => p.text)
          .join(' ');
        const hit = englishIn(prose);
        // One line per sentence shape (numbers and names vary): what to add a rule for.
        if (hit) left.set(frame.note.replace(/\d+/g, '#'), `${file}: ${frame.note}\n    → ${prose} (${hit.why})`);
      }
    }
    if (left.size) console.log(`${left.size} notes left in English:\n${[...left.values()].join('\n')}`);
    expect([...left.values()]).toEqual([]);
    expect([...events]).toEqual([]);
  }, 120_000);

  it("loopscope's own sentences are translated, never quoted as a tool's; counts agree in number", () => {
    const pt = (loop: string, note: string) => translateNote(loop, { note }, 'pt-BR');
    expect(
      translateNote(
        'terraform',
        { note: 'state written: serial 2', message: { key: 'terraform.stateWritten', params: { serial: 2 } } },
        'pt-BR',
      ),
    ).toEqual([{ text: 'estado gravado: serial 2' }]);
    const waiting = {
      key: 'kubernetes.reconcile',
      params: { key: 'default/web', summary: { kind: 'replicaSetWaiting', active: 1, desired: 3, add: 2, del: 0 } },
    };
    expect(
      translateNote(
        'kubernetes',
        { note: 'reconcile default/web: 1/3 pods in cache, but expectations unmet (add 2, del 0): wait for the watch', message: waiting },
        'pt-BR',
      ),
    ).toEqual([
      { text: 'reconcile default/web: 1/3 pods no cache, mas as expectativas não foram cumpridas (add 2, del 0): esperar o watch' },
    ]);
    expect(pt('kubernetes', 'reconcile default/web: cpu 22%/50%: ceil(0.44 × 1 ready) → 1 (DesiredWithinRange) → keep')).toEqual([
      { text: 'reconcile default/web: cpu 22%/50%: ceil(0.44 × 1 pronto) → 1 (dentro do intervalo: ' },
      { text: 'DesiredWithinRange', verbatim: true },
      { text: ') → manter' },
    ]);
    expect(pt('incus-hpa', '1 pods < min 2 → create 1')).toEqual([{ text: '1 pod < mín. 2 → criar 1' }]);
    // What the tool itself prints stays its own, marked.
    const line = "app.service: Failed with result 'start-limit-hit'.";
    expect(translateNote('systemd-restart', { note: line, message: { key: 'systemd.journal', params: { line } } }, 'pt-BR')).toEqual([
      { text: line, verbatim: true },
    ]);
  });
});
