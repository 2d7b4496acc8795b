import { Handle, Position } from '@xyflow/react';
import type { Node, NodeProps } from '@xyflow/react';
import { memo } from 'react';

export type StateNodeData = { label: string; tags: string[]; compound: boolean; active: boolean; initial: boolean };
export type StateFlowNode = Node<StateNodeData, 'state'>;

/** One state of the machine: its name and phase tag; compound states are frames around children. */
export const StateNodeView = memo(function StateNodeView({ data }: NodeProps<StateFlowNode>) {
  const phase = data.tags[0];
  return (
    <div className={`sc-node${data.compound ? ' compound' : ''}${data.active ? ' active' : ''}${phase ? ` tag-${phase}` : ''}`}
      data-testid="sc-node" data-active={data.active} data-label={data.label}>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div className="sc-label">{data.initial ? '● ' : ''}{data.label}</div>
      {phase && <div className="sc-tag">{phase}</div>}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
});
