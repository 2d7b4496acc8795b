import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner, parseScenarioText } from '../../sim/loops';
import type { FrameNoteOf } from '../../web/i18n/notes';
import { translateNote } from '../../web/i18n/notes';
import { englishIn } from '../browser/english';

const ROOT = join(import.meta.dirname, '../..');

/** Every note every shipped scenario writes, under each of its loop's policies (one frame per English text). */
function notesByLoop(): Map<string, Map<string, FrameNoteOf>> {
  const out = new Map<string, Map<string, FrameNoteOf>>();
  for (const f of readdirSync(join(ROOT, 'scenarios'))
    .filter((x) => x.endsWith('.yaml'))
    .sort()) {
    let parsed;
    try {
      parsed = parseScenarioText(`scenarios/${f}`, f, readFileSync(join(ROOT, 'scenarios', f), 'utf8'));
    } catch {
      continue;
    }
    const { entry, scenario } = parsed;
    for (const policy of entry.policies?.names ?? [undefined]) {
      const runner = createRunner(entry, scenario, policy ? { policy } : {}).run(scenario.durationMs);
      const set = out.get(entry.id) ?? new Map<string, FrameNoteOf>();
      for (const fr of runner.frames) if (fr.note) set.set(fr.note, fr);
      out.set(entry.id, set);
    }
  }
  return out;
}

describe('notes in Portuguese (web/i18n/notes.ts)', () => {
  const notes = notesByLoop();

  it('every note of every scenario, translated, has no English outside quoted tool output', () => {
    const left: string[] = [];
    for (const [loop, set] of notes) {
      for (const [note, frame] of set) {
        const parts = translateNote(loop, frame, 'pt-BR');
        const prose = parts
          .filter((p) => !p.verbatim)
          .map((p) => p.text)
          .join(' ')
          .replace(/"[^"]*"|'[^']*'/g, ' ');
        const hit = englishIn(prose);
        if (hit) left.push(`${loop}: ${note} → ${prose} (${hit.why})`);
      }
    }
    expect(left.slice(0, 20)).toEqual([]);
  }, 120_000);

  it("the Incus HPA's decisions are translated, not quoted; tool errors are quoted", () => {
    const hpa = [...(notes.get('incus-hpa')?.values() ?? [])];
    const quoted = hpa.filter((n) => translateNote('incus-hpa', n, 'pt-BR').every((p) => p.verbatim));
    expect(quoted.map((n) => n.note)).toEqual([]);
    expect(translateNote('incus-hpa', { note: 'avg 93% ≥ threshold 40%, 1 pods < max 5 → create 1 pod' }, 'pt-BR')).toEqual([
      { text: 'média 93% ≥ limite 40%, 1 pod < máx. 5 → criar 1' },
    ]);
    expect(translateNote('incus-hpa', { note: 'error: Instance is running (retry #1)' }, 'pt-BR')).toEqual([
      { text: 'erro: ' },
      { text: 'Instance is running', verbatim: true },
      { text: ' (nova tentativa nº 1)' },
    ]);
    expect(translateNote('incus-hpa', { note: 'created pod1' }, 'en')).toEqual([{ text: 'created pod1' }]);
  });
});
