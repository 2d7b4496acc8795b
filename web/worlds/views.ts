import type { ComponentType } from 'react';
import { createElement } from 'react';
import { frameOf } from '../../sim/loop-frames';
import type { LoopId } from '../../sim/loops/define';
import { isLoopId } from '../../sim/loops/define';
import type { FrameOf } from '../../sim/trace';
import { IncusHpaConfigEditor } from './incus-hpa/IncusHpaConfigEditor';
import { IncusHpaInterventions } from './incus-hpa/IncusHpaInterventions';
import { IncusHpaWorldView } from './incus-hpa/IncusHpaWorldView';
import { CronInterventions } from './cron/CronInterventions';
import { CronWorldView } from './cron/CronWorldView';
import { KubernetesInterventions } from './kubernetes/KubernetesInterventions';
import { KubernetesWorldView } from './kubernetes/KubernetesWorldView';
import { KubernetesReplicasEditor } from './kubernetes/KubernetesReplicasEditor';
import { SystemdRestartInterventions } from './systemd-restart/SystemdRestartInterventions';
import { SystemdRestartWorldView } from './systemd-restart/SystemdRestartWorldView';
import { SystemdRestartUnitEditor } from './systemd-restart/SystemdRestartUnitEditor';
import { PuppetWorldView } from './puppet/PuppetWorldView';
import { PuppetInterventions } from './puppet/PuppetInterventions';
import { TerraformConfigEditor } from './terraform/TerraformConfigEditor';
import { TerraformInterventions } from './terraform/TerraformInterventions';
import { TerraformWorldView } from './terraform/TerraformWorldView';
import { JsonWorldView } from './JsonWorldView';
import { LoopCharts } from './LoopCharts';
import type { LoopViews, WorldViewProps } from './types';

/** The lab's views of each loop, on its typed frames: a loop without views does not compile (JsonWorldView is the plain fallback view). */
const VIEWS: { [L in LoopId]: LoopViews<FrameOf<L>> } = {
  'incus-hpa': { World: IncusHpaWorldView, Charts: LoopCharts, Interventions: IncusHpaInterventions, Editor: IncusHpaConfigEditor },
  'systemd-restart': {
    World: SystemdRestartWorldView,
    Charts: LoopCharts,
    Interventions: SystemdRestartInterventions,
    Editor: SystemdRestartUnitEditor,
  },
  cron: { World: CronWorldView, Charts: LoopCharts, Interventions: CronInterventions },
  kubernetes: { World: KubernetesWorldView, Charts: LoopCharts, Interventions: KubernetesInterventions, Editor: KubernetesReplicasEditor },
  puppet: { World: PuppetWorldView, Charts: LoopCharts, Interventions: PuppetInterventions },
  terraform: { World: TerraformWorldView, Charts: LoopCharts, Interventions: TerraformInterventions, Editor: TerraformConfigEditor },
};

/** A loop's view on the session's frame: the frame narrowed to the loop's by the session's loop id (another loop's, which the lab never pairs with this view, is shown as JSON). */
function onSessionFrame<L extends LoopId>(loop: L, View: ComponentType<WorldViewProps<FrameOf<L>>>): ComponentType<WorldViewProps> {
  function OnSessionFrame({ session, frame }: WorldViewProps) {
    const typed = frameOf(loop, session.loop, frame);
    return typed ? createElement(View, { session, frame: typed }) : createElement(JsonWorldView, { session, frame });
  }
  OnSessionFrame.displayName = View.displayName ?? View.name;
  return OnSessionFrame;
}

function sessionViews<L extends LoopId>(loop: L): LoopViews {
  const { World, Charts, Interventions, Editor } = VIEWS[loop];
  return {
    World: onSessionFrame(loop, World),
    ...(Charts ? { Charts: onSessionFrame(loop, Charts) } : {}),
    ...(Interventions ? { Interventions: onSessionFrame(loop, Interventions) } : {}),
    ...(Editor ? { Editor: onSessionFrame(loop, Editor) } : {}),
  };
}

// Made once per loop: React keeps a view's state only while its component stays the same.
const SESSION_VIEWS = new Map<LoopId, LoopViews>();

/** A loaded trace may name any loop: unknown ones are shown as JSON. */
export function viewsFor(loop: string): LoopViews {
  if (!isLoopId(loop)) return { World: JsonWorldView };
  let views = SESSION_VIEWS.get(loop);
  if (!views) {
    views = sessionViews(loop);
    SESSION_VIEWS.set(loop, views);
  }
  return views;
}
