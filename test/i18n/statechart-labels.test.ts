import { describe, expect, it } from 'vitest';
import { LOOPS } from '../../sim/loops/registry';
import { LANGUAGES } from '../../web/i18n/messages';
import { machineGraph } from '../../web/statechart/graph';
import { eventPhrase, labelGraph } from '../../web/statechart/labels';
import { englishIn } from '../browser/english';

/** The types make each loop's table name every state, event, actor, delay and guard its machine declares;
 * this checks what types cannot: every node and edge the chart draws (invoke ids, guard parameters) finds
 * its words, in every language, and the Portuguese ones are Portuguese. */
describe('statechart labels (web/i18n/statechart-labels/)', () => {
  for (const entry of Object.values(LOOPS)) {
    it(`${entry.id}: every state and edge of the chart has a label in ${LANGUAGES.join(' and ')}`, () => {
      const graph = labelGraph(entry.id, machineGraph(entry.binding.machine));
      const missing = [
        ...graph.nodes.filter((n) => !n.text).map((n) => `state ${n.id}`),
        ...graph.edges.filter((e) => !e.text).map((e) => `edge ${e.source} → ${e.target}: ${e.label}`),
      ];
      expect(missing).toEqual([]);
      const texts = [...graph.nodes, ...graph.edges].flatMap((x) => (x.text ? [x.text] : []));
      for (const lang of LANGUAGES)
        expect(
          texts.filter((t) => !t[lang].trim()),
          lang,
        ).toEqual([]);
      expect(
        texts.flatMap((t) => {
          const hit = englishIn(t['pt-BR']);
          return hit ? [`${t['pt-BR']} (${hit.why})`] : [];
        }),
      ).toEqual([]);
    });
  }

  it("every edge's event reads as words on the event line, in both languages", () => {
    const left: string[] = [];
    for (const entry of Object.values(LOOPS)) {
      const events = new Set(
        machineGraph(entry.binding.machine)
          .edges.map((e) => e.event)
          .filter(Boolean),
      );
      for (const type of [...events, 'xstate.init', 'world.timeline', 'world.inject', 'controller.restart']) {
        for (const lang of LANGUAGES) if (eventPhrase(entry.id, type, lang) === type) left.push(`${entry.id} ${lang}: ${type}`);
      }
    }
    expect(left).toEqual([]);
    expect(eventPhrase('incus-hpa', 'xstate.after.compareTime.incus-hpa.comparing', 'pt-BR')).toBe('temporizador: decidiu');
    expect(eventPhrase('systemd-restart', 'SYSTEMCTL.STOP', 'en')).toBe('systemctl stop');
  });
});
