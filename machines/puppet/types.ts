/** What a Puppet agent knows: the catalog (desired state) and its settings. Plain data only. */

export type ResourceType = 'package' | 'file' | 'service' | 'user';
export const RESOURCE_TYPES: readonly ResourceType[] = ['package', 'file', 'service', 'user'];

/** A resource reference as Puppet writes it: `Package[nginx]`, `File[/etc/motd]`. */
export type Ref = string;
export const refOf = (type: ResourceType, title: string): Ref => `${type[0]!.toUpperCase()}${type.slice(1)}[${title}]`;

/** Property values as Puppet's types hold them (strings; service `enable` is 'true'/'false'). */
export type Values = Record<string, string>;

/**
 * One catalog resource. `should` holds the managed properties, Puppet's names:
 * package ensure (present|installed|absent|purged|latest|<version>), file ensure (file|present|absent)
 * and content, service ensure (running|stopped) and enable, user ensure (present|absent) and shell.
 */
export interface Resource {
  type: ResourceType;
  title: string;
  should: Values;
  /** Relationship metaparameters (Puppet "Relationships and ordering"). */
  require: Ref[];
  before: Ref[];
  notify: Ref[];
  subscribe: Ref[];
  /** The `noop` metaparameter: this resource only reports what it would change. */
  noop: boolean;
}

/** The agent's settings (puppet.conf, lib/puppet/defaults.rb), durations in ms. */
export interface AgentSettings {
  /** runinterval, default 30m. */
  runintervalMs: number;
  /** splay (default false) and splaylimit (default: runinterval): a random delay before the first run only. */
  splay: boolean;
  splaylimitMs: number | null;
  /** noop (default false): every resource reports, nothing changes. */
  noop: boolean;
}

export const DEFAULT_SETTINGS: AgentSettings = { runintervalMs: 30 * 60_000, splay: false, splaylimitMs: null, noop: false };

export interface PuppetConfig {
  settings: AgentSettings;
  /** Resources in manifest order (ordering = manifest: ties in the graph go by this order). */
  catalog: Resource[];
}

/** What `retrieve` found for a resource; packages also say the newest version the repository has. */
export interface Observation {
  current: Values;
  latest: string | null;
}

/** Resource::Status, the fields this model fills (lib/puppet/resource/status.rb). */
export interface ResourceStatus {
  ref: Ref;
  outOfSync: string[];
  changed: boolean;
  failed: boolean;
  skipped: boolean;
  /** Events that stayed noop (global or per-resource noop). */
  noop: boolean;
  corrective: boolean;
  failedDependencies: Ref[];
  /** Restarted in answer to notify/subscribe, or would have been (noop). */
  restarted: boolean;
  failedToRestart: boolean;
  message: string;
}

export type ReportStatus = 'failed' | 'changed' | 'unchanged';

/** The run report: status, the detailed exit code and the resource metrics. */
export interface RunReport {
  run: number;
  /** When the run started (the report's `time`), ms. */
  time: number;
  catalogVersion: number;
  noop: boolean;
  status: ReportStatus;
  exitCode: number;
  changes: number;
  corrective: boolean;
  noopPending: boolean;
  resources: {
    total: number;
    changed: number;
    failed: number;
    skipped: number;
    outOfSync: number;
    restarted: number;
    failedToRestart: number;
    corrective: number;
  };
  statuses: ResourceStatus[];
  /** Evaluation order of this run. */
  order: Ref[];
}
