import { BaseEdge, EdgeLabelRenderer } from '@xyflow/react';
import type { Edge, EdgeProps } from '@xyflow/react';
import { memo } from 'react';
import type { Routed } from './layout';

/** `text` in the UI language; `ids` the machine's own (event [guard]), shown as the tooltip. */
export type RoutedEdgeData = { route: Routed | undefined; text: string; ids: string; last: boolean };
export type RoutedFlowEdge = Edge<RoutedEdgeData, 'routed'>;

/** Draws the path ELK routed (xyflow's own edges would ignore the layout and cross nodes). */
export const RoutedEdge = memo(function RoutedEdge({ id, data, sourceX, sourceY, targetX, targetY, markerEnd }: EdgeProps<RoutedFlowEdge>) {
  const pts = data?.route?.points ?? [
    { x: sourceX, y: sourceY },
    { x: targetX, y: targetY },
  ];
  const path = pts.map((p, i) => `${i ? 'L' : 'M'}${p.x},${p.y}`).join(' ');
  const label = data?.route?.label;
  return (
    <>
      <BaseEdge id={id} path={path} {...(markerEnd ? { markerEnd } : {})} className={data?.last ? 'sc-path last' : 'sc-path'} />
      {label && data?.text && (
        <EdgeLabelRenderer>
          <div
            className={`sc-edge-label${data.last ? ' last' : ''}`}
            style={{ transform: `translate(${label.x}px, ${label.y}px)`, width: label.width }}
            title={data.ids}
            data-machine-id={data.ids}
          >
            {data.text}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});
