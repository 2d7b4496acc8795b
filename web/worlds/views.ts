import type { LoopId } from '../../sim/loops/define';
import { isLoopId } from '../../sim/loops/define';
import { HpaConfigEditor } from './hpa/HpaConfigEditor';
import { HpaInterventions } from './hpa/HpaInterventions';
import { HpaWorldView } from './hpa/HpaWorldView';
import { CronInterventions } from './cron/CronInterventions';
import { CronWorldView } from './cron/CronWorldView';
import { KubeInterventions } from './kubernetes/KubeInterventions';
import { KubeWorldView } from './kubernetes/KubeWorldView';
import { ReplicasEditor } from './kubernetes/ReplicasEditor';
import { SystemdInterventions } from './systemd-restart/SystemdInterventions';
import { SystemdWorldView } from './systemd-restart/SystemdWorldView';
import { UnitEditor } from './systemd-restart/UnitEditor';
import { PuppetWorldView } from './puppet/PuppetWorldView';
import { PuppetInterventions } from './puppet/PuppetInterventions';
import { TerraformConfigEditor } from './terraform/TerraformConfigEditor';
import { TerraformInterventions } from './terraform/TerraformInterventions';
import { TerraformWorldView } from './terraform/TerraformWorldView';
import { JsonWorldView } from './JsonWorldView';
import { LoopCharts } from './LoopCharts';
import type { LoopViews } from './types';

/** The lab's views of each loop: a loop without views does not compile (JsonWorldView is the plain fallback view). */
const VIEWS = {
  'incus-hpa': { World: HpaWorldView, Charts: LoopCharts, Interventions: HpaInterventions, Editor: HpaConfigEditor },
  'systemd-restart': { World: SystemdWorldView, Charts: LoopCharts, Interventions: SystemdInterventions, Editor: UnitEditor },
  cron: { World: CronWorldView, Charts: LoopCharts, Interventions: CronInterventions },
  kubernetes: { World: KubeWorldView, Charts: LoopCharts, Interventions: KubeInterventions, Editor: ReplicasEditor },
  puppet: { World: PuppetWorldView, Charts: LoopCharts, Interventions: PuppetInterventions },
  terraform: { World: TerraformWorldView, Charts: LoopCharts, Interventions: TerraformInterventions, Editor: TerraformConfigEditor },
} satisfies Record<LoopId, LoopViews>;

/** A loaded trace may name any loop: unknown ones are shown as JSON. */
export const viewsFor = (loop: string): LoopViews => (isLoopId(loop) ? VIEWS[loop] : { World: JsonWorldView });
