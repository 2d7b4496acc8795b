import type { LoopCheck } from './model';
import { hpaCheck } from '../properties/incus-hpa';
import { kubernetesCheck } from '../properties/kubernetes';
import { terraformCheck } from '../properties/terraform';
import { puppetCheck } from '../properties/puppet';
import { systemdRestartCheck } from '../properties/systemd-restart';
import { cronCheck } from '../properties/cron';

/** The checker's loops. Add a loop with one module in sim/properties/ and one entry here. */
export const CHECKS: Record<string, LoopCheck<unknown, unknown, unknown>> = {
  'incus-hpa': hpaCheck as unknown as LoopCheck<unknown, unknown, unknown>,
  kubernetes: kubernetesCheck as unknown as LoopCheck<unknown, unknown, unknown>,
  terraform: terraformCheck as unknown as LoopCheck<unknown, unknown, unknown>,
  puppet: puppetCheck as unknown as LoopCheck<unknown, unknown, unknown>,
  'systemd-restart': systemdRestartCheck as unknown as LoopCheck<unknown, unknown, unknown>,
  cron: cronCheck as unknown as LoopCheck<unknown, unknown, unknown>,
};
