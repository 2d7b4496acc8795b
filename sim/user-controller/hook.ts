import { InputError } from '../scenario/errors';

/**
 * How a scenario's `controller: { module }` is loaded. The scenario parsers also run in the browser
 * (the lab), where a module cannot be sandboxed; the Node side (sim/loops/index.ts) installs the
 * real loader (sim/user-controller/module-reconciler.ts).
 */
export type ModuleControllerLoader = (scenarioFile: string, modulePath: string, timeoutMs: number) => { name: string };
export interface WebhookControllerConfig { metacontroller: 'composite'; parent: string; children: string[]; sync: string; finalize?: string | undefined; timeoutMs: number }
/** A DecoratorController: the target resource, its labelSelector.matchLabels and the attachment kinds. */
export interface DecoratorWebhookConfig { metacontroller: 'decorator'; resource: string; labelSelector: Record<string, string>; attachments: string[]; sync: string; finalize?: string | undefined; timeoutMs: number }
export type WebhookControllerLoader = (config: WebhookControllerConfig | DecoratorWebhookConfig) => { name: string };

let loader: ModuleControllerLoader | undefined;
let webhookLoader: WebhookControllerLoader | undefined;

export function setModuleControllerLoader(l: ModuleControllerLoader, w: WebhookControllerLoader): void {
  loader = l;
  webhookLoader = w;
}

export function loadWebhookController(scenarioFile: string, config: WebhookControllerConfig | DecoratorWebhookConfig): { name: string } {
  if (!webhookLoader) {
    throw new InputError(scenarioFile, 'controller.sync', 'expected a built-in controller in the lab: a webhook controller runs under the CLI (loopscope sim / check), whose trace the lab loads');
  }
  return webhookLoader(config);
}

/** A reconcile's time limit unless the scenario says `controller.timeout`. */
export const MODULE_TIMEOUT_MS = 1000;
/** A hook call's: Metacontroller's default webhook timeout is 10 s (api/v1alpha1 Webhook.Timeout). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export function loadModuleController(scenarioFile: string, modulePath: string, timeoutMs: number): { name: string } {
  if (!loader) {
    throw new InputError(scenarioFile, 'controller.module', 'expected a built-in controller in the lab: a controller module runs under the CLI (loopscope sim / check), whose trace the lab loads');
  }
  return loader(scenarioFile, modulePath, timeoutMs);
}
