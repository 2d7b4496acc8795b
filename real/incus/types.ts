// Typed shapes of the Incus REST API (the subset loopscope uses).
// Reference: https://linuxcontainers.org/incus/docs/main/rest-api/ and rest-api-spec.
// Field names are the wire names (snake_case), so values can be passed through unchanged.

/** Every answer is wrapped in this envelope (docs: rest-api "Return values"). */
export interface IncusEnvelope<T = unknown> {
  type: 'sync' | 'async' | 'error';
  status?: string;
  status_code?: number;
  /** For `async`: the path of the background operation, e.g. `/1.0/operations/<uuid>`. */
  operation?: string;
  error_code?: number;
  error?: string;
  metadata: T;
}

/** Status names Incus uses for instances and operations (api/status_code.go). */
export type IncusStatus =
  | 'Operation created'
  | 'Started'
  | 'Stopped'
  | 'Running'
  | 'Cancelling'
  | 'Pending'
  | 'Starting'
  | 'Stopping'
  | 'Aborting'
  | 'Freezing'
  | 'Frozen'
  | 'Thawed'
  | 'Error'
  | 'Ready'
  | 'Success'
  | 'Failure'
  | 'Cancelled'
  // Newer servers may add statuses: keep the union open without losing autocompletion.
  | (string & {});

export interface ServerEnvironment {
  /** `incus` or `lxd`: which daemon answered. */
  server: string;
  server_version: string;
  server_name?: string;
  server_pid?: number;
  server_clustered?: boolean;
  driver?: string;
  driver_version?: string;
  kernel?: string;
  kernel_version?: string;
  architectures?: string[];
  certificate?: string;
  certificate_fingerprint?: string;
  project?: string;
  storage?: string;
  storage_version?: string;
  os_name?: string;
  os_version?: string;
}

/** GET /1.0 */
export interface ServerInfo {
  api_extensions: string[];
  api_status: string;
  api_version: string;
  /** `trusted` when our credentials are accepted. */
  auth: 'trusted' | 'untrusted' | (string & {});
  public: boolean;
  auth_methods?: string[];
  auth_user_name?: string;
  auth_user_method?: string;
  config?: Record<string, string>;
  /** Absent for untrusted clients. */
  environment?: ServerEnvironment;
}

/**
 * Memory part of the instance state, in bytes. `total` is the memory limit
 * (API extension `instances_state_total`); 0 or absent on servers without it.
 */
export interface InstanceStateMemory {
  usage: number;
  usage_peak: number;
  total?: number;
  swap_usage: number;
  swap_usage_peak: number;
}

export interface InstanceStateCPU {
  /** Nanoseconds of CPU time used. */
  usage: number;
  allocated_time?: number;
}

export interface InstanceStateDisk {
  usage: number;
  total?: number;
}

export interface InstanceStateNetworkAddress {
  family: 'inet' | 'inet6' | (string & {});
  address: string;
  netmask: string;
  scope: string;
}

export interface InstanceStateNetwork {
  addresses: InstanceStateNetworkAddress[];
  counters: Record<string, number>;
  hwaddr: string;
  host_name: string;
  mtu: number;
  state: string;
  type: string;
}

/** GET /1.0/instances/{name}/state */
export interface InstanceState {
  status: IncusStatus;
  status_code: number;
  memory: InstanceStateMemory;
  cpu: InstanceStateCPU;
  disk: Record<string, InstanceStateDisk> | null;
  network: Record<string, InstanceStateNetwork> | null;
  pid: number;
  processes: number;
  started_at?: string;
  os_info?: Record<string, string> | null;
}

export type InstanceType = 'container' | 'virtual-machine';

export type DeviceMap = Record<string, Record<string, string>>;

/** GET /1.0/instances/{name} (and items of ?recursion=1). */
export interface Instance {
  name: string;
  description: string;
  status: IncusStatus;
  status_code: number;
  type: InstanceType;
  architecture: string;
  config: Record<string, string>;
  devices: DeviceMap;
  expanded_config?: Record<string, string>;
  expanded_devices?: DeviceMap;
  profiles: string[];
  ephemeral: boolean;
  stateful: boolean;
  created_at: string;
  last_used_at: string;
  location: string;
  project: string;
}

/** Items of GET /1.0/instances?recursion=2: the instance with its state inlined. */
export interface InstanceFull extends Instance {
  /** Null when the server could not read the state (e.g. instance being deleted). */
  state: InstanceState | null;
  snapshots?: unknown[] | null;
  backups?: unknown[] | null;
}

/** Where a new instance comes from (docs: rest-api-spec InstanceSource). */
export type InstanceSource =
  | {
      type: 'image';
      alias?: string;
      fingerprint?: string;
      properties?: Record<string, string>;
      server?: string;
      protocol?: 'incus' | 'simplestreams' | 'lxd' | (string & {});
      project?: string;
      allow_inconsistent?: boolean;
    }
  | { type: 'none' }
  | { type: 'copy'; source: string; instance_only?: boolean; project?: string };

/** POST /1.0/instances */
export interface InstancesPost {
  name: string;
  source: InstanceSource;
  type?: InstanceType;
  description?: string;
  config?: Record<string, string>;
  devices?: DeviceMap;
  profiles?: string[];
  ephemeral?: boolean;
  /** Start the instance once created (saves a second operation). */
  start?: boolean;
  instance_type?: string;
}

/** PATCH /1.0/instances/{name}: only the given fields change (config keys are merged). */
export interface InstancePatch {
  description?: string;
  config?: Record<string, string>;
  devices?: DeviceMap;
  profiles?: string[];
  ephemeral?: boolean;
}

export type InstanceAction = 'start' | 'stop' | 'restart' | 'freeze' | 'unfreeze';

/** PUT /1.0/instances/{name}/state */
export interface InstanceStatePut {
  action: InstanceAction;
  /** Seconds the server waits for a clean stop before giving up (-1: no limit). */
  timeout?: number;
  force?: boolean;
  stateful?: boolean;
}

/** POST /1.0/instances/{name}/exec (non-interactive, output recorded to log files). */
export interface InstanceExecPost {
  command: string[];
  environment?: Record<string, string>;
  'wait-for-websocket': boolean;
  'record-output': boolean;
  interactive: boolean;
  width?: number;
  height?: number;
  user?: number;
  group?: number;
  cwd?: string;
}

export type OperationClass = 'task' | 'websocket' | 'token';

/** A background operation (docs: rest-api "Background operation"). */
export interface Operation {
  id: string;
  class: OperationClass | (string & {});
  description: string;
  created_at: string;
  updated_at: string;
  status: IncusStatus;
  status_code: number;
  resources: Record<string, string[]> | null;
  metadata: Record<string, unknown> | null;
  may_cancel: boolean;
  /** Server's error message when status is `Failure`. */
  err: string;
  location: string;
}

/** Metadata of a finished exec operation with record-output. */
export interface ExecOperationMetadata {
  return: number;
  /** fd number ("1", "2") → log path such as /1.0/instances/x/logs/exec-output/exec_<id>.stdout */
  output?: Record<string, string>;
}

export interface ExecResult {
  returnCode: number;
  /** Present when `captureOutput` was requested. */
  stdout?: string;
  stderr?: string;
  operation: Operation;
}
