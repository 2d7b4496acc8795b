import type { LoopId } from '../sim/loops/loop-id';
import type { LoopUi } from './loop-ui-types';
import { CRON_UI } from './worlds/cron/ui';
import { INCUS_HPA_UI } from './worlds/incus-hpa/ui';
import { KUBERNETES_UI } from './worlds/kubernetes/ui';
import { PUPPET_UI } from './worlds/puppet/ui';
import { SYSTEMD_RESTART_UI } from './worlds/systemd-restart/ui';
import { TERRAFORM_UI } from './worlds/terraform/ui';

/**
 * The lab's one registry of what it shows of each loop (chart, banner, home card, tour stop, side-by-side
 * comparison, statechart labels), one entry per loop in web/worlds/<loop>/ui.ts: a loop without an entry,
 * or an entry missing a piece, does not compile. Its readers: web/worlds/chartSpecs.ts, components/banner/,
 * home/loops.ts, tour/stops.ts, compare/divergence.ts, statechart/labels.ts. Node reads it too (the CLI's
 * export, the build's statechart layouts), so the React views are not here but in web/worlds/views.ts.
 */
export const LOOP_UI: { readonly [L in LoopId]: LoopUi<L> } = {
  cron: CRON_UI,
  puppet: PUPPET_UI,
  'systemd-restart': SYSTEMD_RESTART_UI,
  terraform: TERRAFORM_UI,
  kubernetes: KUBERNETES_UI,
  'incus-hpa': INCUS_HPA_UI,
};
