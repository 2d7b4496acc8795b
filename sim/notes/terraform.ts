// A scheduled (or one-off) `terraform apply` as loopscope narrates it (sim/loops/terraform.ts,
// sim/worlds/terraform.ts). What terraform itself prints (its plan, progress, summary, errors) is quoted verbatim.
import type { MessageOf, NoParams, NoteCatalog } from './catalog';
import { messagesOf, verbatim } from './catalog';

/** A plan's counts. */
export type Planned = { add: number; change: number; destroy: number };

const times = (every: string | null) => (every === null ? '' : ` every ${every}`);

export const TERRAFORM_NOTES = {
  /** A line of Terraform's own output, as it prints it. */
  'terraform.output': ({ text }: { text: string }) => verbatim(text),
  /** `every`: the scheduler's interval, null when nothing schedules it. */
  'terraform.started': ({ command, every, resources, who }: { command: string; every: string | null; resources: number; who: string }) =>
    `${verbatim(command)} ${every === null ? 'run once (no scheduler: a tool, not a loop)' : `every ${every} (a scheduler makes it a loop)`}; ${resources} resources, as ${who}`,
  'terraform.lockAcquired': ({
    run,
    lockId,
    serial,
    resources,
  }: {
    run: number;
    lockId: string | null;
    serial: number;
    resources: number;
  }) => `run ${run}: ${verbatim('Acquiring state lock…')} ID ${lockId}; state serial ${serial}, ${resources} resources`,
  'terraform.lockFailed': ({ run, error }: { run: number; error: string }) => `run ${run}: ${verbatim(error)}`,
  'terraform.refreshed': ({ objects }: { objects: number }) =>
    `${verbatim('Refreshing state…')} ${objects} object${objects === 1 ? '' : 's'}, no changes outside Terraform`,
  'terraform.refreshOnly': ({ objects }: { objects: number }) =>
    `${verbatim('refresh-only')}: the state will be updated to match ${objects} remote object${objects > 1 ? 's' : ''}; no infrastructure changes`,
  'terraform.changeFailed': ({ error, tainted }: { error: string; tainted: boolean }) =>
    `${verbatim(error)}${tainted ? ' — the object exists: marked tainted' : ''}`,
  'terraform.stateWritten': ({ serial }: { serial: number | null }) => `state written: serial ${serial}`,
  /** `unlock`: what releasing the lock printed ("Releasing state lock." or its error). */
  'terraform.planExit': ({ unlock, exitCode, planned }: { unlock: string; exitCode: number; planned: Planned | null }) =>
    `${verbatim(unlock)} plan exit code ${exitCode}${planned ? ` (${planned.add} to add, ${planned.change} to change, ${planned.destroy} to destroy)` : ''}`,
  'terraform.planningFailed': ({ unlock }: { unlock: string }) => `${verbatim(unlock)} Planning failed (exit 1): nothing was changed.`,
  'terraform.applyFailed': ({
    unlock,
    added,
    changed,
    destroyed,
    notApplied,
  }: {
    unlock: string;
    added: number;
    changed: number;
    destroyed: number;
    notApplied: number;
  }) =>
    `${verbatim(unlock)} Apply failed (exit 1): ${added} added, ${changed} changed, ${destroyed} destroyed${notApplied ? `; ${notApplied} not applied (their dependencies failed)` : ''}. The next run plans from this partial state.`,
  'terraform.scheduled': ({ run }: { run: number }) => `scheduler: run ${run} starts`,
  'terraform.byHand': ({ command }: { command: string }) => `${verbatim(command)} (by hand)`,
  'terraform.configEdited': ({ resources, command, every }: { resources: number; command: string; every: string | null }) =>
    `configuration edited: ${resources} resources, ${verbatim(command)}${times(every)}`,
  /** `change`: the address, the object's id and the attributes set, as the console shows them. */
  'terraform.consoleEdit': ({ change }: { change: string }) => `changed in the console, outside Terraform: ${verbatim(change)}`,
  'terraform.consoleEditMissing': ({ address }: { address: string }) => `console edit of ${address}: no such object`,
  'terraform.deletedOutside': ({ address, id }: { address: string; id: string }) => `deleted outside Terraform: ${address} (${id})`,
  'terraform.deleteMissing': ({ address }: { address: string }) => `delete of ${address}: no such object`,
  /** `times` < 0: every create fails from now on. */
  'terraform.createsWillFail': ({ address, times: n, tainted }: { address: string; times: number; tainted: boolean }) =>
    `the cloud will fail the next ${n < 0 ? 'every' : n} create${n === 1 ? '' : 's'} of ${address}${tainted ? ' after the object exists (tainted)' : ''}`,
  'terraform.dataWritten': ({ gb, address, id }: { gb: number; address: string; id: string }) =>
    `the application writes ${gb} GB to ${address} (${id})`,
  'terraform.writeMissing': ({ address }: { address: string }) => `no object for ${address} to write to`,
  'terraform.forceUnlockNoLock': (_: NoParams) => `${verbatim('terraform force-unlock')}: no lock held`,
  'terraform.forceUnlocked': ({ lockId }: { lockId: string }) =>
    `${verbatim(`terraform force-unlock ${lockId}`)}: ${verbatim('Terraform state has been successfully unlocked!')}`,
  'terraform.killed': (_: NoParams) => 'the terraform process is killed',
} satisfies NoteCatalog;

export const terraformNote = messagesOf<typeof TERRAFORM_NOTES>();
export type TerraformNote = MessageOf<typeof TERRAFORM_NOTES>;
