import { useRef } from 'react';
import { useLanguage, useT } from '../../i18n/i18n';
import { useFitCount } from '../fitCount';
import { KUBERNETES_TEXT } from './messages';
import type { FrameOf } from '../../../sim/trace';
import type { WorldViewProps } from '../types';
import '../worlds.css';
import { KubernetesEvents } from './KubernetesEvents';
import { KubernetesTables } from './KubernetesTables';
import { NodeColumns } from './NodeColumns';

/** The simulated cluster: pods under their nodes, workload tables, recent events. */
export function KubernetesWorldView({ frame }: WorldViewProps<FrameOf<'kubernetes'>>) {
  const t = useT();
  const k = KUBERNETES_TEXT[useLanguage()];
  const world = frame.world;
  const ready = world.pods.filter((p) => p.ready).length;
  const box = useRef<HTMLElement>(null);
  // On a projector short of room, what gives way, in order: the older events (the newest is the one that matters),
  // the events' block, then the pods' full names (one line each).
  const { n: room, fitted } = useFitCount(box, world.events.length + 2, frame);
  const compact = room === 0;
  const events = Math.max(0, room - 2);
  return (
    <section className="world kubernetes-world" data-testid="world" ref={box} data-fitting={!fitted}>
      <h3>
        {t('pods')}: <span data-testid="kubernetes-ready">{ready}</span>/{world.pods.length} {k.ready} · {t('nodes')}: {world.nodes.length}
      </h3>
      <NodeColumns world={world} compact={compact} />
      <KubernetesTables world={world} />
      {room >= 2 && <KubernetesEvents world={world} shown={events} />}
    </section>
  );
}
