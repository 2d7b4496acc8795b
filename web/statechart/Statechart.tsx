import { Controls as FlowControls, MarkerType, ReactFlow, useReactFlow, useStore } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useEffect, useMemo, useState } from 'react';
import LAYOUTS from 'virtual:loopscope-statecharts';
import type { AnyStateMachine } from 'xstate';
import { flowLabels } from '../i18n/flow-labels';
import { useLanguage, useT } from '../i18n/i18n';
import type { ChartGraph } from './graph';
import { activeIds, lastEdge, machineGraph } from './graph';
import { labelGraph, phaseWord } from './labels';
import type { Layout } from './layout';
import { deserializeLayout } from './layout';
import type { StateFlowNode } from './StateNodeView';
import { StateNodeView } from './StateNodeView';
import type { RoutedFlowEdge } from './RoutedEdge';
import { FollowIcon } from '../components/icons';
import { RoutedEdge } from './RoutedEdge';
import type { Box } from './viewport';
import { absoluteBoxes, fitBox, neighbourhood, union } from './viewport';

const NODE_TYPES = { state: StateNodeView };
const EDGE_TYPES = { routed: RoutedEdge };
/** Follow mode never zooms out below 1: the layout's type (16 px states, 14 px edge labels) stays that size. */
const READABLE_ZOOM = 1;

export type ChartView = 'follow' | 'whole';

export interface StatechartProps {
  machine: AnyStateMachine;
  /** The loop the machine is (its labels: web/i18n/statechart-labels/). */
  loop: string;
  state: string;
  previousState: string | undefined;
  /** Presenter mode: dark controls, and the chart follows the active state by default. */
  presenter?: boolean;
  /** The lab shows the diagram alone (key d); the button toggles it. */
  diagramOnly?: boolean;
  onDiagramOnly?(): void;
  /** Follow the active state or show the whole chart (key w); uncontrolled when absent. */
  view?: ChartView;
  onView?(view: ChartView): void;
  /** Laid out in the page (the inspector: a machine the build never saw); else the build's layout by machine id. */
  layout?: Layout;
  /** A parallel state's other regions: more active paths, lit like `state` (the inspector). */
  alsoActive?: readonly string[];
}

/** The machine's own statechart (xstate/graph → elkjs → @xyflow/react); the active state lit. */
export const Statechart = memo(function Statechart({
  machine,
  loop,
  state,
  previousState,
  presenter = false,
  diagramOnly = false,
  onDiagramOnly,
  view: controlled,
  onView,
  layout,
  alsoActive,
}: StatechartProps) {
  const t = useT();
  const lang = useLanguage();
  const [own, setOwn] = useState<ChartView>(presenter ? 'follow' : 'whole');
  const view = controlled ?? own;
  const setView = (v: ChartView) => {
    setOwn(v);
    onView?.(v);
  };
  const graph = useMemo(() => labelGraph(loop, machineGraph(machine)), [loop, machine]);
  // Laid out at build time (vite-plugin.ts); missing only if the dev server predates the machine.
  const placed = useMemo(() => {
    if (layout) return layout;
    const saved = LAYOUTS[machine.id];
    return saved ? deserializeLayout(saved) : null;
  }, [machine, layout]);
  const missing = placed ? graph.nodes.filter((n) => !placed.nodes.has(n.id)).map((n) => n.id) : [];
  const problem = !placed
    ? `no layout for machine "${machine.id}": restart the dev server (npm start)`
    : missing.length
      ? `the layout is stale (no ${missing.join(', ')}): restart the dev server`
      : null;

  const active = useMemo(
    () => new Set([state, ...(alsoActive ?? [])].flatMap((s) => [...activeIds(graph.rootId, s)])),
    [graph, state, alsoActive],
  );
  const taken = useMemo(
    () =>
      previousState !== undefined && previousState !== state ? lastEdge(graph, activeIds(graph.rootId, previousState), active) : undefined,
    [graph, previousState, state, active],
  );

  const nodes = useMemo<StateFlowNode[]>(() => {
    if (!placed || missing.length) return [];
    return graph.nodes.map((n) => {
      const p = placed.nodes.get(n.id)!;
      return {
        id: n.id,
        type: 'state',
        position: { x: p.x, y: p.y },
        width: p.width,
        height: p.height,
        ...(n.parent ? { parentId: n.parent, extent: 'parent' as const } : {}),
        data: {
          label: n.label,
          text: n.text?.[lang] ?? n.label,
          tag: n.tags[0] === undefined ? undefined : phaseWord(n.tags[0], lang),
          tags: n.tags,
          compound: n.compound,
          active: active.has(n.id),
          initial: n.initial,
        },
        draggable: false,
        selectable: false,
        zIndex: n.compound ? 0 : 1,
      };
    });
  }, [graph, placed, active, missing.length, lang]);

  // Screen readers get the edge in words too (@xyflow's default, "Edge from <id> to <id>", is English and ids).
  const words = useMemo(() => new Map(graph.nodes.map((n) => [n.id, n.text?.[lang] ?? n.label])), [graph, lang]);
  const edges = useMemo<RoutedFlowEdge[]>(
    () =>
      graph.edges.map((e) => ({
        id: e.id,
        source: e.source,
        target: e.target,
        type: 'routed',
        zIndex: 2,
        ariaLabel: `${words.get(e.source) ?? e.source} → ${words.get(e.target) ?? e.target}: ${e.text?.[lang] ?? e.label}`,
        markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 },
        data: { route: placed?.edges.get(e.id), text: e.text?.[lang] ?? e.label, ids: e.label, last: e.id === taken },
      })),
    [graph, placed, taken, lang, words],
  );

  return (
    <section className="statechart" data-testid="statechart" data-active={state} data-view={view}>
      <div className="sc-head">
        <h3>
          {t('statechart')}: <code>{machine.id}</code>
        </h3>
        <div className="sc-tools" role="group">
          <button
            data-testid="sc-view"
            aria-pressed={view === 'whole'}
            onClick={() => setView(view === 'follow' ? 'whole' : 'follow')}
            title={`${view === 'follow' ? t('chartWhole') : t('chartFollow')} (w)`}
          >
            {view === 'follow' ? (
              `⊞ ${t('chartWhole')}`
            ) : (
              <>
                <FollowIcon /> {t('chartFollow')}
              </>
            )}
          </button>
          {onDiagramOnly && (
            <button data-testid="sc-diagram-only" aria-pressed={diagramOnly} onClick={onDiagramOnly} title={`${t('diagramOnly')} (d)`}>
              {diagramOnly ? `▣ ${t('showAll')}` : `□ ${t('diagramOnly')}`}
            </button>
          )}
        </div>
      </div>
      {problem && (
        <pre className="input-error" data-testid="statechart-error">
          {problem}
        </pre>
      )}
      <div className="sc-canvas" data-testid="sc-canvas">
        {placed && (
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            edgeTypes={EDGE_TYPES}
            minZoom={0.02}
            maxZoom={3}
            colorMode={presenter ? 'dark' : 'light'}
            ariaLabelConfig={flowLabels(lang)}
            nodesDraggable={false}
            nodesConnectable={false}
            elementsSelectable={false}
            nodesFocusable={false}
            edgesFocusable={false}
            zoomOnScroll={false}
            preventScrolling={false}
            proOptions={{ hideAttribution: true }}
          >
            <Framer graph={graph} layout={placed} active={active} view={view} />
            {/* Zoom buttons: anyone can look closer, or further, than the view chose. */}
            <FlowControls showInteractive={false} showFitView={false} />
          </ReactFlow>
        )}
      </div>
    </section>
  );
});

/** Moves the camera: to the active state and its neighbours (follow), or to the whole chart; again on every resize. */
function Framer({ graph, layout, active, view }: { graph: ChartGraph; layout: Layout; active: Set<string>; view: ChartView }) {
  const flow = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const boxes = useMemo(() => absoluteBoxes(graph, layout), [graph, layout]);
  const { focus, around } = useMemo(() => neighbourhood(graph, active), [graph, active]);
  useEffect(() => {
    if (!width || !height) return;
    const all = union([...boxes.values()]);
    if (!all) return;
    let target;
    if (view === 'whole') target = fitBox(all, width, height, 12, 0.02, 1.5);
    else {
      const near = union(around.map((id) => boxes.get(id)).filter((b): b is Box => b !== undefined)) ?? all;
      target = fitBox(near, width, height, 24, READABLE_ZOOM, 1.6, focus ? boxes.get(focus) : undefined);
    }
    void flow.setViewport(target, { duration: 0 });
  }, [flow, width, height, boxes, focus, around, view]);
  return null;
}
