/** What Terraform knows: the configuration, the state file, the plan. Plain data only. */

export type Scalar = string | number | boolean;

/** A `resource "type" "name"` block: its arguments, depends_on and lifecycle (meta-arguments). */
export interface ResourceConfig {
  /** "aws_instance.web" */
  address: string;
  type: string;
  name: string;
  /** Arguments; a string "${aws_vpc.main.id}" is a reference (an implicit dependency). */
  attrs: Record<string, Scalar>;
  dependsOn: string[];
  lifecycle: { createBeforeDestroy: boolean; preventDestroy: boolean; ignoreChanges: string[] };
}

/** How Terraform is run: `terraform apply -auto-approve`, `terraform plan`, `terraform apply -refresh-only -auto-approve`. */
export type RunMode = 'apply' | 'plan' | 'refresh-only';

export interface TerraformConfig {
  resources: ResourceConfig[];
  mode: RunMode;
  /** A scheduler (cron, CI) runs it again every this many ms; null: it runs once — not a loop. */
  everyMs: number | null;
  /** Who holds the lock (LockInfo.Who), e.g. "ci@runner-1". */
  who: string;
}

/** One resource instance in the state file (terraform.tfstate, format version 4). */
export interface StateResource {
  address: string;
  type: string;
  id: string;
  attrs: Record<string, Scalar>;
  /** The resources it depended on when last applied (so deletes can be ordered without the config). */
  dependencies: string[];
  /** Created but failed part-way ("tainted"): the next plan replaces it. */
  tainted: boolean;
  /**
   * A prior object of this address, replaced with create_before_destroy and not yet destroyed
   * (states.DeposedKey): kept in the state under "<address> (deposed n)" so a later plan destroys it.
   */
  deposedOf?: string;
}

export interface TfState {
  version: 4;
  /** Incremented on every write that changes the state. */
  serial: number;
  lineage: string;
  resources: Record<string, StateResource>;
}

/** statemgr.LockInfo (internal/states/statemgr/locker.go). */
export interface LockInfo {
  id: string;
  operation: 'OperationTypeApply' | 'OperationTypePlan' | 'OperationTypeRefresh';
  who: string;
  version: string;
  created: number;
  path: string;
}

/** The value Terraform shows as "(known after apply)". */
export const UNKNOWN = '(known after apply)';
export type PlannedValue = Scalar | typeof UNKNOWN;

/** plans.Action (internal/plans/action.go), as the plan renderer names them. */
export type Action = 'create' | 'update' | 'replace' | 'delete' | 'no-op';

export interface AttrChange {
  name: string;
  before: Scalar | undefined;
  after: PlannedValue | undefined;
  forcesReplacement: boolean;
}

export interface PlannedChange {
  address: string;
  type: string;
  action: Action;
  /** For replace: DeleteThenCreate (-/+) or CreateThenDelete (+/-, create_before_destroy). */
  order?: 'destroy-before-create' | 'create-before-destroy';
  /** ResourceInstanceChangeActionReason, where there is one. */
  reason?: 'tainted' | 'cannot-update' | 'not-in-configuration';
  attrs: AttrChange[];
}

export interface Plan {
  changes: PlannedChange[];
  errors: string[];
}

/** "Objects have changed outside of Terraform": what refresh found different from the state file. */
export interface Drift {
  address: string;
  kind: 'changed' | 'deleted';
  attrs: { name: string; before: Scalar | undefined; after: Scalar | undefined }[];
}

/** One cloud operation of an apply, with the operations it waits for. */
export interface ApplyOp {
  key: string;
  address: string;
  kind: 'create' | 'update' | 'delete';
  /** The object a delete removes (for create_before_destroy, the deposed old object). */
  objectId?: string;
  after: string[];
}

/** What a provider's ApplyResourceChange returns: the new object (or none) and an error, possibly both. */
export interface ApplyOutcome {
  object: { id: string; attrs: Record<string, Scalar> } | null;
  error: string | null;
}
