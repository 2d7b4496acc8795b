import { isLoopId } from '../../sim/loops/loop-id';
import type { Phase } from '../../sim/trace';
import type { Language } from '../i18n/messages';
import { MESSAGES } from '../i18n/messages';
import type { LoopChartLabels, Text } from '../i18n/statechart-labels';
import { ALWAYS, EVENT_KIND, RUNNER_EVENTS } from '../i18n/statechart-labels';
import { LOOP_UI } from '../loop-ui';
import type { ChartEdge, ChartGraph } from './graph';

/**
 * The words the chart and the event line show for a machine's ids, per language. The tables live in
 * web/i18n/statechart-labels/ (complete by type for every loop), each in its loop's LOOP_UI entry; an id
 * a table lacks (a loaded trace of a loop the lab does not know) is shown as the id.
 */
const tableOf = (loop: string): LoopChartLabels | undefined => (isLoopId(loop) ? LOOP_UI[loop].labels : undefined);

type Parsed =
  { kind: 'always' } | { kind: 'timer'; delay: string } | { kind: 'done' | 'error'; actor: string } | { kind: 'event'; type: string };

/** "xstate.after.compareTime.incus-hpa.comparing" → a timer named compareTime; "xstate.done.actor.observe" → observe's answer. */
function parse(eventType: string): Parsed {
  if (eventType === '') return { kind: 'always' };
  const after = /^xstate\.after\.([^.]+)(?:\.|$)/.exec(eventType);
  if (after) return { kind: 'timer', delay: after[1]! };
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (actor) return { kind: actor[1] === 'done' ? 'done' : 'error', actor: actor[2]! };
  return { kind: 'event', type: eventType };
}

/** The label of what set an edge off (its event), or undefined when the table has none. */
function triggerText(t: LoopChartLabels | undefined, p: Parsed): Text | undefined {
  switch (p.kind) {
    case 'always':
      return ALWAYS;
    case 'timer':
      return t?.delays[p.delay];
    case 'done':
      return t?.actors[p.actor]?.done;
    case 'error':
      return t?.actors[p.actor]?.error;
    case 'event':
      return t?.events[p.type] ?? RUNNER_EVENTS[p.type];
  }
}

function guardText(t: LoopChartLabels | undefined, guard: NonNullable<ChartEdge['guard']>): Text | undefined {
  const g = t?.guards[guard.type];
  return typeof g === 'function' ? g(guard.params as never) : g; // a guard's label function takes exactly the parameters the machine declares it with (ChartLabels' type), which this transition passes
}

const both = (f: (lang: Language) => string): Text => ({ en: f('en'), 'pt-BR': f('pt-BR') });

/** A state's label, or undefined when the loop's table has none. */
export const stateText = (loop: string, key: string): Text | undefined => tableOf(loop)?.states[key];

/** An edge's label: what sets it off, and its guard in brackets; undefined when either has no label. */
export function edgeText(loop: string, edge: Pick<ChartEdge, 'event' | 'guard'>): Text | undefined {
  const t = tableOf(loop);
  const trigger = triggerText(t, parse(edge.event));
  const guard = edge.guard ? guardText(t, edge.guard) : undefined;
  if (!trigger || (edge.guard && !guard)) return undefined;
  return both((l) => (guard ? `${trigger[l]} [${guard[l]}]` : trigger[l]));
}

/** The graph with each node's and edge's words (the ids stay the ids). */
export function labelGraph(loop: string, graph: ChartGraph): ChartGraph {
  return {
    ...graph,
    nodes: graph.nodes.map((n) => {
      const text = stateText(loop, n.label);
      return text ? { ...n, text } : n;
    }),
    edges: graph.edges.map((e) => {
      const text = edgeText(loop, e);
      return text ? { ...e, text } : e;
    }),
  };
}

/** The event line: "timer: decided", "answer: instances listed", "systemctl stop"; the raw type when unknown. */
export function eventPhrase(loop: string, eventType: string, lang: Language): string {
  const p = parse(eventType);
  const text = triggerText(tableOf(loop), p);
  if (!text) return eventType;
  // A machine's own event (systemctl stop, hpa.yaml edited) and the runner's say what they are already.
  return p.kind === 'timer' || p.kind === 'done' || p.kind === 'error' ? `${EVENT_KIND[p.kind][lang]}: ${text[lang]}` : text[lang];
}

const PHASES: readonly Phase[] = ['observe', 'compare', 'act', 'wait', 'error'];

/** A state's phase tag (one per state: test/contract/phase-tags) as the UI language says it: "observar". */
export function phaseWord(tag: string, lang: Language): string {
  const p = PHASES.find((x) => x === tag);
  return p ? MESSAGES[lang][p].toLowerCase() : tag;
}

/** A state path ("acting.creating") in words ("acting › creating a pod"); a part without a label stays its key. */
export const statePhrase = (loop: string, dotted: string, lang: Language): string =>
  dotted
    .split('.')
    .filter(Boolean)
    .map((k) => stateText(loop, k)?.[lang] ?? k)
    .join(' › ');
