// placement: spread counts this HPA's pods per member from the last observation plus the creates
// sent since. A create still in flight when the loop observes again (parallel creates, one failed,
// backoff, a new look) must stay counted: forgetting it put two pods of three on one member of the
// real test cluster. The member list is given here; the cluster's own answer is test/real/cluster.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpreadPlacement } from '../../real/placement';

const MEMBERS = ['m1', 'm2', 'm3'];
const countBy = (members: string[]) => Object.fromEntries(MEMBERS.map((m) => [m, members.filter((x) => x === m).length]));

describe('placement spread', () => {
  it('three parallel creates go to three members', () => {
    const spread = new SpreadPlacement();
    spread.seen([]);
    expect(['a', 'b', 'c'].map((n) => spread.pick(MEMBERS, n))).toEqual(['m1', 'm2', 'm3']);
  });

  it('a create in flight across an observation that does not list it yet stays counted', () => {
    const spread = new SpreadPlacement();
    spread.seen([]);
    expect([spread.pick(MEMBERS, 'a'), spread.pick(MEMBERS, 'b')]).toEqual(['m1', 'm2']);
    // Another act failed, the loop backed off and observed while `a` and `b` were still being created.
    spread.seen([]);
    expect(spread.pick(MEMBERS, 'c')).toBe('m3');
    spread.settled('a');
    spread.seen([{ name: 'a', location: 'm1' }]);
    expect(spread.pick(MEMBERS, 'd')).toBe('m1');
  });

  it('a create that ended and is not listed (deleted since) is no longer counted', () => {
    const spread = new SpreadPlacement();
    spread.seen([]);
    spread.pick(MEMBERS, 'a');
    spread.settled('a');
    spread.seen([]);
    expect(spread.pick(MEMBERS, 'b')).toBe('m1');
  });

  it('any interleaving of creates, endings and observations keeps our pods within one of each other', () => {
    // Each create is sent, then listed by later observations once it has ended; the counts the
    // picks make are balanced whatever the order of events.
    fc.assert(
      fc.property(fc.array(fc.constantFrom('create', 'end', 'observe'), { maxLength: 40 }), (events) => {
        const spread = new SpreadPlacement();
        const placed = new Map<string, string>();
        const inFlight: string[] = [];
        const created = new Set<string>();
        let n = 0;
        for (const e of events) {
          if (e === 'create') {
            const name = `p${n++}`;
            placed.set(name, spread.pick(MEMBERS, name));
            inFlight.push(name);
          }
          if (e === 'end' && inFlight.length) {
            const name = inFlight.shift()!;
            created.add(name);
            spread.settled(name);
          }
          // An observation lists what exists: the ended creates, and (racing) maybe some in flight.
          if (e === 'observe') spread.seen([...created].map((name) => ({ name, location: placed.get(name)! })));
        }
        const counts = Object.values(countBy([...placed.values()]));
        expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
      }),
    );
  });
});
