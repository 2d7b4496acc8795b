import { describe, expect, it } from 'vitest';
import { LOOP_IDS } from '../../sim/loops/loop-id';
import { TIMELINE } from '../../web/home/loops';
import { TOUR } from '../../web/tour/stops';
import { viewsFor } from '../../web/worlds/views';

describe("the lab's one registry (web/loop-ui.ts) as its readers see it", () => {
  it("the tour keeps the talk's order, scenarios and chapters", () => {
    expect(TOUR.map((s) => [s.loop, s.scenario, s.moment])).toEqual([
      ['cron', 'cron-normal', 'seven-oclock'],
      ['puppet', 'puppet-webserver', 'drift-reverted'],
      ['systemd-restart', 'systemd-crash-loop', 'start-limit-hit'],
      ['terraform', 'terraform-drift', 'drift-reverted'],
      ['kubernetes', 'kubernetes-replicaset', 'pod-crashed'],
      ['incus-hpa', 'talk-lab', 'first-scale-up'],
    ]);
  });

  it('the home timeline has one card per loop, in order of appearance, the talk’s lab last and undated', () => {
    expect(TIMELINE.map((c) => c.id)).toEqual([...LOOP_IDS]);
    expect(TIMELINE.map((c) => c.year)).toEqual([1975, 2005, 2010, 2011, 2014, null]);
  });

  it('every loop has its world, a chart and interventions; the editor only where the desired state is editable', () => {
    const panels = Object.fromEntries(LOOP_IDS.map((loop) => [loop, Object.keys(viewsFor(loop)).sort()]));
    expect(panels).toEqual({
      cron: ['Charts', 'Interventions', 'World'],
      puppet: ['Charts', 'Interventions', 'World'],
      'systemd-restart': ['Charts', 'Editor', 'Interventions', 'World'],
      terraform: ['Charts', 'Editor', 'Interventions', 'World'],
      kubernetes: ['Charts', 'Editor', 'Interventions', 'World'],
      'incus-hpa': ['Charts', 'Editor', 'Interventions', 'World'],
    });
    expect(Object.keys(viewsFor('no-such-loop'))).toEqual(['World']);
  });
});
