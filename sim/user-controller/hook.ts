import type { ModulePolicy } from '../../machines/incus-hpa';
import type { Reconciler } from '../../machines/kubernetes';
import type { PolicyModuleLoader } from './policy-hook';
import type { DeclaredProperty } from './declared';

/** A user's own controller as its scenario loaded it: a sandboxed module or a Metacontroller webhook. */
export interface UserController {
  /** `module:<path>` or `webhook:<sync url>`: the name the machine's config carries. */
  name: string;
  reconciler: Reconciler<unknown>;
  /** Counts the scenario declares for it (`properties:`), checked beside the built-in claims. */
  declared: DeclaredProperty[];
}

export interface WebhookControllerConfig {
  metacontroller: 'composite';
  parent: string;
  children: string[];
  sync: string;
  finalize?: string | undefined;
  timeoutMs: number;
}
/** A DecoratorController: the target resource, its labelSelector.matchLabels and the attachment kinds. */
export interface DecoratorWebhookConfig {
  metacontroller: 'decorator';
  resource: string;
  labelSelector: Record<string, string>;
  attachments: string[];
  sync: string;
  finalize?: string | undefined;
  timeoutMs: number;
}

/**
 * How a scenario's user code is loaded: `controller: { module }`, a webhook controller, an HPA's
 * `policy: { module }`. The scenario parsers also run in the browser (the lab), where a module
 * cannot be sandboxed: there the parser gets no loaders and says so; the Node side passes its own
 * (sim/user-controller/node-loaders.ts).
 */
export interface UserCodeLoaders {
  module(scenarioFile: string, modulePath: string, timeoutMs: number): { name: string; reconciler: Reconciler<unknown> };
  webhook(config: WebhookControllerConfig | DecoratorWebhookConfig): { name: string; reconciler: Reconciler<unknown> };
  policy: PolicyModuleLoader;
}

/** What a scenario's parse loaded of the user's own code (filled in by the parse, read by parseScenario). */
export interface LoadedUserCode {
  controller?: UserController;
  /** The HPA's policy modules, by id (the start config's and the timeline's). */
  policies: Map<string, ModulePolicy>;
}

/** What a loop's parser may use beside the document: the host's loaders (none in the lab) and where
 * to put what it loads. */
export interface ScenarioHost {
  loaders?: UserCodeLoaders | undefined;
  loaded: LoadedUserCode;
}

/** A reconcile's time limit unless the scenario says `controller.timeout`. */
export const MODULE_TIMEOUT_MS = 1000;
/** A hook call's: Metacontroller's default webhook timeout is 10 s (api/v1alpha1 Webhook.Timeout). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Why a controller that needs Node cannot load here (the lab). */
export const NEEDS_CLI = {
  module:
    'expected a built-in controller in the lab: a controller module runs under the CLI (loopscope sim / check), whose trace the lab loads',
  webhook:
    'expected a built-in controller in the lab: a webhook controller runs under the CLI (loopscope sim / check), whose trace the lab loads',
} as const;
