import { Handle, Position } from '@xyflow/react';
import type { Node, NodeProps } from '@xyflow/react';
import { memo } from 'react';

/** `label` is the state's key (its id in the machine, the tooltip); `text` its words in the UI language, `tag` the phase in it. */
export type StateNodeData = {
  label: string;
  text: string;
  tag: string | undefined;
  tags: string[];
  compound: boolean;
  active: boolean;
  initial: boolean;
};
export type StateFlowNode = Node<StateNodeData, 'state'>;

/** One state of the machine: its name and phase tag; compound states are frames around children. */
export const StateNodeView = memo(function StateNodeView({ data }: NodeProps<StateFlowNode>) {
  const phase = data.tags[0];
  return (
    <div
      className={`sc-node${data.compound ? ' compound' : ''}${data.active ? ' active' : ''}${phase ? ` tag-${phase}` : ''}`}
      data-testid="sc-node"
      data-active={data.active}
      data-label={data.label}
      data-machine-id={data.label}
      title={data.label}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div className="sc-label">
        {data.initial ? '● ' : ''}
        {data.text}
      </div>
      {data.tag && <div className="sc-tag">{data.tag}</div>}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
});
