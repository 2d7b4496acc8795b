import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner, parseScenarioText } from '../../sim/loops';
import type { NoteMessage } from '../../sim/notes';
import { NOTES, renderMessage } from '../../sim/notes';
import type { NoteCatalog } from '../../sim/notes/catalog';
import { plainText } from '../../sim/notes/catalog';
import { COMMON_NOTES } from '../../sim/notes/common';
import { CRON_NOTES } from '../../sim/notes/cron';
import { PUPPET_NOTES } from '../../sim/notes/puppet';
import { SYSTEMD_NOTES } from '../../sim/notes/systemd';
import { TERRAFORM_NOTES } from '../../sim/notes/terraform';
import { KUBERNETES_NOTES } from '../../sim/notes/kubernetes';
import { translateNote } from '../../web/i18n/notes';
import { NOTES_PT } from '../../web/i18n/note-texts';
import { englishIn } from '../browser/english';

const ROOT = join(import.meta.dirname, '../..');

/** Every catalog, as sim/notes/index.ts merges them (a key two catalogs share would hide one of them). */
const CATALOGS: readonly NoteCatalog[] = [COMMON_NOTES, CRON_NOTES, KUBERNETES_NOTES, PUPPET_NOTES, SYSTEMD_NOTES, TERRAFORM_NOTES];

interface Written {
  loop: string;
  note: string;
  message: NoteMessage;
  where: string;
}

/** Every message every shipped scenario writes (demo and check scenarios), under each of its loop's policies. */
function writtenMessages(): Written[] {
  const out: Written[] = [];
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
      for (const frame of runner.frames) {
        // The runner writes a message from the catalog's own keys (a NoteMessage), never a stored one of another version.
        if (frame.message)
          out.push({
            loop: entry.id,
            note: frame.note ?? '',
            message: frame.message as NoteMessage,
            where: `${f}${policy ? ` (${policy})` : ''}`,
          }); // see the line before
      }
    }
  }
  return out;
}

/**
 * Keys no shipped scenario writes, with parameters of their type (the compiler checks them against
 * the key): every other key's sample parameters come from the runs themselves.
 */
const UNWRITTEN: { [K in NoteMessage['key']]?: Extract<NoteMessage, { key: K }>['params'] } = {
  'puppet.runNow': {},
  'systemd.error': { error: 'kill(4242, SIGTERM): No such process' },
  'terraform.consoleEditMissing': { address: 'aws_instance.web' },
  'terraform.deleteMissing': { address: 'aws_instance.web' },
  'terraform.forceUnlockNoLock': {},
  'terraform.killed': {},
  'terraform.writeMissing': { address: 'aws_ebs_volume.data' },
  'kubernetes.config': { reconciler: 'replicaset' },
  'kubernetes.controllerRestart': {},
  'kubernetes.crashWriteLands': {},
  'kubernetes.crashWriteLost': {},
  'kubernetes.error': { error: 'context deadline exceeded' },
  'kubernetes.kubectlNotFound': { command: 'kubectl scale', object: 'Deployment web' },
  'kubernetes.nodeBack': { node: 'node-2' },
  'kubernetes.watchReordered': { count: 3, maxMs: 500 },
  'puppet.driftFailed': { ref: 'File[/etc/motd]', error: "Could not set 'file' on ensure: No such file or directory" },
};

describe('the note catalog (sim/notes) and its Portuguese (web/i18n/note-texts)', () => {
  const written = writtenMessages();

  it('no two catalogs share a key', () => {
    const keys = CATALOGS.flatMap((c) => Object.keys(c));
    expect(new Set(keys).size).toBe(keys.length);
    expect(Object.keys(NOTES).sort()).toEqual([...keys].sort());
  });

  it("a frame's note is its message's English text", () => {
    const wrong = written.filter((w) => plainText(renderMessage(NOTES, w.message) ?? '') !== w.note);
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('every key renders in both languages, with no English left outside quoted tool output in pt-BR', () => {
    const samples = new Map<string, NoteMessage[]>();
    for (const w of written) samples.set(w.message.key, [...(samples.get(w.message.key) ?? []), w.message]);
    for (const [key, params] of Object.entries(UNWRITTEN)) {
      // UNWRITTEN's type pairs each key with its own parameters.
      if (!samples.has(key)) samples.set(key, [{ key, params } as NoteMessage]); // see the line before
    }
    expect([...samples.keys()].sort()).toEqual(Object.keys(NOTES).sort());
    const left: string[] = [];
    for (const messages of samples.values()) {
      for (const message of messages) {
        const english = renderMessage(NOTES, message);
        const portuguese = renderMessage(NOTES_PT, message);
        expect(english).toBeTruthy();
        expect(portuguese).toBeTruthy();
        const prose = translateNote('', { note: plainText(english ?? ''), message }, 'pt-BR')
          .filter((p) => !p.verbatim)
          .map((p) => p.text)
          .join(' ');
        const hit = englishIn(prose);
        if (hit) left.push(`${message.key}: ${prose} (${hit.why})`);
      }
    }
    expect([...new Set(left)].slice(0, 10)).toEqual([]);
  }, 120_000);

  it('keys no scenario writes are the ones UNWRITTEN lists (a key a scenario now writes leaves that list)', () => {
    const seen = new Set<string>(written.map((w) => w.message.key));
    expect(Object.keys(UNWRITTEN).filter((k) => seen.has(k))).toEqual([]);
  });

  it('a check appends to the note after the message: the lab shows the message in its language, then the rest as it is', () => {
    const message: NoteMessage = { key: 'puppet.nextRun', params: { span: '30:00' } };
    expect(translateNote('puppet', { note: 'next run in 30:00 · ✗ converges: x', message }, 'pt-BR')).toEqual([
      { text: 'próxima execução em 30:00' },
      { text: ' · ✗ converges: x' },
    ]);
    expect(translateNote('puppet', { note: 'next run in 30:00', message: { key: 'puppet.gone', params: {} } }, 'pt-BR')).toEqual([
      { text: 'next run in 30:00' },
    ]);
  });
});
