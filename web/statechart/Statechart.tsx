import { Controls as FlowControls, MarkerType, ReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useMemo } from 'react';
import LAYOUTS from 'virtual:loopscope-statecharts';
import type { AnyStateMachine } from 'xstate';
import { useT } from '../i18n/i18n';
import type { ChartGraph } from './graph';
import { activeIds, machineGraph } from './graph';
import { deserializeLayout } from './layout';
import type { StateFlowNode } from './StateNodeView';
import { StateNodeView } from './StateNodeView';
import type { RoutedFlowEdge } from './RoutedEdge';
import { RoutedEdge } from './RoutedEdge';

const NODE_TYPES = { state: StateNodeView };
const EDGE_TYPES = { routed: RoutedEdge };

/** The edge most likely taken from `previous` to `current` (deepest source first). */
function lastEdge(graph: ChartGraph, previous: Set<string>, current: Set<string>): string | undefined {
  let best: { id: string; depth: number } | undefined;
  for (const e of graph.edges) {
    if (!previous.has(e.source) || !current.has(e.target) || e.source === e.target) continue;
    const depth = e.source.split('.').length;
    if (!best || depth > best.depth) best = { id: e.id, depth };
  }
  return best?.id;
}

export interface StatechartProps { machine: AnyStateMachine; state: string; previousState: string | undefined }

/** The machine's own statechart (xstate/graph → elkjs → @xyflow/react); the active state lit. */
export const Statechart = memo(function Statechart({ machine, state, previousState }: StatechartProps) {
  const t = useT();
  const graph = useMemo(() => machineGraph(machine), [machine]);
  // Laid out at build time (vite-plugin.ts); missing only if the dev server predates the machine.
  const placed = useMemo(() => {
    const saved = LAYOUTS[machine.id];
    return saved ? deserializeLayout(saved) : null;
  }, [machine]);
  const missing = placed ? graph.nodes.filter((n) => !placed.nodes.has(n.id)).map((n) => n.id) : [];
  const problem = !placed ? `no layout for machine "${machine.id}": restart the dev server (npm start)`
    : missing.length ? `the layout is stale (no ${missing.join(', ')}): restart the dev server` : null;

  const active = useMemo(() => activeIds(graph.rootId, state), [graph, state]);
  const taken = useMemo(
    () => (previousState !== undefined && previousState !== state ? lastEdge(graph, activeIds(graph.rootId, previousState), active) : undefined),
    [graph, previousState, state, active],
  );

  const nodes = useMemo<StateFlowNode[]>(() => {
    if (!placed || missing.length) return [];
    return graph.nodes.map((n) => {
      const p = placed.nodes.get(n.id)!;
      return {
        id: n.id, type: 'state', position: { x: p.x, y: p.y }, width: p.width, height: p.height,
        ...(n.parent ? { parentId: n.parent, extent: 'parent' as const } : {}),
        data: { label: n.label, tags: n.tags, compound: n.compound, active: active.has(n.id), initial: n.initial },
        draggable: false, selectable: false, zIndex: n.compound ? 0 : 1,
      };
    });
  }, [graph, placed, active, missing.length]);

  const edges = useMemo<RoutedFlowEdge[]>(() => graph.edges.map((e) => ({
    id: e.id, source: e.source, target: e.target, type: 'routed', zIndex: 2,
    markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 },
    data: { route: placed?.edges.get(e.id), text: e.label, last: e.id === taken },
  })), [graph, placed, taken]);

  return (
    <section className="statechart" data-testid="statechart" data-active={state}>
      <h3>{t('statechart')}: <code>{machine.id}</code></h3>
      {problem && <pre className="input-error" data-testid="statechart-error">{problem}</pre>}
      <div className="sc-canvas">
        {placed && (
          <ReactFlow nodes={nodes} edges={edges} nodeTypes={NODE_TYPES} edgeTypes={EDGE_TYPES} fitView fitViewOptions={{ padding: 0.12 }} minZoom={0.2}
            nodesDraggable={false} nodesConnectable={false} elementsSelectable={false}
            zoomOnScroll={false} preventScrolling={false} proOptions={{ hideAttribution: true }}>
            {/* Zoom buttons: large machines (30+ states) are read closer up. */}
            <FlowControls showInteractive={false} />
          </ReactFlow>
        )}
      </div>
    </section>
  );
});
