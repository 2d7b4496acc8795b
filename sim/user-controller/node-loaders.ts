import type { UserCodeLoaders } from './hook';
import { NODE_CONTROLLER_LOADERS } from './module-reconciler';
import { loadPolicyModuleFile } from './policy-module';

/** Node can sandbox a user's modules and call its webhooks; the lab cannot. Scenario parsing on
 * Node passes these (sim/loops/index.ts, api/, real mode's hpa.yaml). */
export const NODE_LOADERS: UserCodeLoaders = { ...NODE_CONTROLLER_LOADERS, policy: loadPolicyModuleFile };
