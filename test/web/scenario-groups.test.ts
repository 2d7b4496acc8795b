// The scenario picker's order: the talk's scenarios first, then each loop's demos, then the check scenarios.
import { expect, it } from 'vitest';
import { groupScenarios, TALK_SCENARIO } from '../../web/lab/scenarioGroups';
import { SCENARIOS } from '../../web/lab/scenarios';
import { TOUR } from '../../web/tour/stops';

it('lists talk-lab and the tour first, checks last and only there, every shipped scenario once', () => {
  const groups = groupScenarios(SCENARIOS);
  const talk = groups[0]!;
  expect(talk.kind).toBe('talk');
  expect(talk.scenarios.map((s) => s.id)).toEqual([...new Set([TALK_SCENARIO, ...TOUR.map((t) => t.scenario)])]);
  const last = groups[groups.length - 1]!;
  expect(last.kind).toBe('checks');
  expect(last.scenarios.length).toBeGreaterThan(10);
  expect(last.scenarios.every((s) => s.id.includes('-check-'))).toBe(true);
  for (const g of groups.slice(1, -1)) {
    expect(g.kind).toBe('loop');
    expect(
      g.scenarios.some((s) => s.id.includes('-check-')),
      g.kind === 'loop' ? g.loop : g.kind,
    ).toBe(false);
    if (g.kind === 'loop') expect(g.scenarios.every((s) => s.loop === g.loop)).toBe(true);
  }
  const listed = groups.flatMap((g) => g.scenarios.map((s) => s.id));
  expect([...listed].sort()).toEqual(SCENARIOS.map((s) => s.id).sort());
});
