import { useEffect, useMemo, useState } from 'react';
import type { AnyStateMachine } from 'xstate';
import { useT } from '../i18n/i18n';
import type { ChartGraph } from '../statechart/graph';
import { machineGraph } from '../statechart/graph';
import { labelGraph } from '../statechart/labels';
import type { Layout } from '../statechart/layout';
import { Statechart } from '../statechart/Statechart';
import { statePaths } from './actor-machine';
import { runtimeLayout } from './runtime-layout';

/** No loop's label table: the chart shows the machine's own state keys and event types. */
const NO_LOOP = '';

/** The graph the chart will draw (the same one Statechart builds), or why the machine cannot be read. */
function graphOf(machine: AnyStateMachine): { graph: ChartGraph } | { error: string } {
  try {
    return { graph: labelGraph(NO_LOOP, machineGraph(machine)) };
  } catch (e) {
    // Transitions are resolved when read: a target the config does not have surfaces here.
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** An inspected actor's machine, laid out in the page (runtime-layout.ts) and drawn by the lab's Statechart. */
export function ActorChart({
  definition,
  machine,
  value,
  previousState,
}: {
  definition: string;
  machine: AnyStateMachine;
  value: unknown;
  previousState: string | undefined;
}) {
  const t = useT();
  // Every active leaf is lit: a parallel state's regions each have one. Keyed by text, so an equal value keeps the same array.
  const paths = statePaths(value).join('\n');
  const [state, alsoActive] = useMemo(() => {
    const [first = '', ...rest] = paths.split('\n');
    return [first, rest] as const;
  }, [paths]);
  const read = useMemo(() => graphOf(machine), [machine]);
  const [laid, setLaid] = useState<{ definition: string; layout: Layout } | { definition: string; error: string } | null>(null);
  useEffect(() => {
    if (!('graph' in read)) return;
    let current = true;
    runtimeLayout(definition, read.graph).then(
      (layout) => {
        if (current) setLaid({ definition, layout });
      },
      (e: unknown) => {
        if (current) setLaid({ definition, error: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => {
      current = false;
    };
  }, [definition, read]);

  const error = 'error' in read ? read.error : laid?.definition === definition && 'error' in laid ? laid.error : null;
  if (error !== null)
    return (
      <pre className="input-error" data-testid="inspect-chart-error">
        {t('inspectBadDefinition')}: {error}
      </pre>
    );
  // Only this definition's layout: while another actor's is still shown, the new one is being laid out.
  const layout = laid?.definition === definition && 'layout' in laid ? laid.layout : null;
  if (!layout)
    return (
      <p className="inspect-muted" data-testid="inspect-laying-out">
        {t('inspectLayingOut')}
      </p>
    );
  return (
    <Statechart machine={machine} loop={NO_LOOP} state={state} previousState={previousState} layout={layout} alsoActive={alsoActive} />
  );
}
