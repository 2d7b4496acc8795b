import type { LoopId } from '../../sim/loops/define';
import { isLoopId } from '../../sim/loops/define';
import { HpaCharts } from './hpa/HpaCharts';
import { HpaConfigEditor } from './hpa/HpaConfigEditor';
import { HpaInterventions } from './hpa/HpaInterventions';
import { HpaWorldView } from './hpa/HpaWorldView';
import { CronCharts } from './cron/CronCharts';
import { CronInterventions } from './cron/CronInterventions';
import { CronWorldView } from './cron/CronWorldView';
import { KubeCharts } from './kubernetes/KubeCharts';
import { KubeInterventions } from './kubernetes/KubeInterventions';
import { KubeWorldView } from './kubernetes/KubeWorldView';
import { ReplicasEditor } from './kubernetes/ReplicasEditor';
import { SystemdCharts } from './systemd-restart/SystemdCharts';
import { SystemdInterventions } from './systemd-restart/SystemdInterventions';
import { SystemdWorldView } from './systemd-restart/SystemdWorldView';
import { UnitEditor } from './systemd-restart/UnitEditor';
import { PuppetCharts } from './puppet/PuppetCharts';
import { PuppetWorldView } from './puppet/PuppetWorldView';
import { PuppetInterventions } from './puppet/PuppetInterventions';
import { TerraformCharts } from './terraform/TerraformCharts';
import { TerraformConfigEditor } from './terraform/TerraformConfigEditor';
import { TerraformInterventions } from './terraform/TerraformInterventions';
import { TerraformWorldView } from './terraform/TerraformWorldView';
import { JsonWorldView } from './JsonWorldView';
import type { LoopViews } from './types';

/** The lab's views of each loop: a loop without views does not compile (JsonWorldView is the plain fallback view). */
const VIEWS = {
  'incus-hpa': { World: HpaWorldView, Charts: HpaCharts, Interventions: HpaInterventions, Editor: HpaConfigEditor },
  'systemd-restart': { World: SystemdWorldView, Charts: SystemdCharts, Interventions: SystemdInterventions, Editor: UnitEditor },
  cron: { World: CronWorldView, Charts: CronCharts, Interventions: CronInterventions },
  kubernetes: { World: KubeWorldView, Charts: KubeCharts, Interventions: KubeInterventions, Editor: ReplicasEditor },
  puppet: { World: PuppetWorldView, Charts: PuppetCharts, Interventions: PuppetInterventions },
  terraform: { World: TerraformWorldView, Charts: TerraformCharts, Interventions: TerraformInterventions, Editor: TerraformConfigEditor },
} satisfies Record<LoopId, LoopViews>;

/** A loaded trace may name any loop: unknown ones are shown as JSON. */
export const viewsFor = (loop: string): LoopViews => (isLoopId(loop) ? VIEWS[loop] : { World: JsonWorldView });
