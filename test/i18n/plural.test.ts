import { describe, expect, it } from 'vitest';
import { NOUNS, count } from '../../web/i18n/plural';
import { systemdRestartBanner } from '../../web/components/banner/systemd-restart';
import { runnerFor } from '../../sim/loops';
import { join } from 'node:path';

describe('counts in the lab (web/i18n/plural.ts: Intl.PluralRules)', () => {
  it('agree with the count in both languages', () => {
    expect([1, 2].map((n) => count(n, 'en', NOUNS.pod))).toEqual(['1 pod', '2 pods']);
    expect([1, 2].map((n) => count(n, 'pt-BR', NOUNS.pod))).toEqual(['1 pod', '2 pods']);
    expect([1, 2].map((n) => count(n, 'pt-BR', NOUNS.restart))).toEqual(['1 reinício', '2 reinícios']);
    expect([1, 2].map((n) => count(n, 'en', NOUNS.restart))).toEqual(['1 restart', '2 restarts']);
    expect([0, 0].map((n, i) => count(n, i ? 'pt-BR' : 'en', NOUNS.conflict))).toEqual(['0 conflicts', '0 conflitos']);
  });

  it("systemd's banner counts its restarts", () => {
    const { runner, scenario } = runnerFor(join(import.meta.dirname, '../../scenarios/systemd-crash-loop.yaml'));
    runner.run(scenario.durationMs);
    const acted = runner.frames.map((_, i) => systemdRestartBanner(runner.frames, i, 'pt-BR').acted);
    expect(acted).toContain('1 reinício até agora');
    expect(acted).toContain('2 reinícios até agora');
  });
});
