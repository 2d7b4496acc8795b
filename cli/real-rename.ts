// `loopscope real rename --config hpa.yaml --to NEW`: hand the config's HPA over to another name by
// re-keying the owner key of the pods it owns (real/rename.ts), holding both names' leases meanwhile
// (real/rename-lease.ts). Exit 0 done (or nothing to do), 1 refused / interrupted / Incus failed, 2 bad input.
import type { Command } from 'commander';
import { OWNER_KEY } from '../machines/incus-hpa';
import { loadRealHpaConfig } from '../real/hpa-config';
import type { IncusClient, Instance } from '../real/incus';
import type { LeaderElector } from '../real/lease';
import { describeLease, releaseDeadRenameLease, takeLeaseForRename } from '../real/rename-lease';
import type { RekeyResult, RenamePlan } from '../real/rename';
import { RENAMED_FROM_KEY, planRename, rekeyInstance } from '../real/rename';
import { shorten } from '../sim/scenario/errors';
import { ExitError } from './exit';
import { connectChecked, incusFailure } from './incus-connect';
import { UsageError } from './usage';

interface RenameOpts {
  config?: string;
  to?: string;
  dryRun?: boolean;
  remote?: string;
  project?: string;
}

/** HPA names as hpa.yaml's `name` takes them (sim/scenario/hpa-config.ts). */
const HPA_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

const say = (line: string) => {
  process.stdout.write(`${line}\n`);
};
const statusOf = (i: Instance) => i.status;
const list = (pods: Instance[]) => pods.map((i) => i.name).join(', ');

function refuseForeign(plan: RenamePlan): never {
  throw new ExitError(
    1,
    `refused: HPA ${plan.to} already owns ${plan.foreign.length} pod(s) (${shorten(list(plan.foreign), 120)}) that no rename from ${plan.from} moved: ` +
      `re-keying would merge two HPAs. Choose another --to, or remove ${plan.to}'s pods first`,
  );
}

function nextSteps(file: string, prefix: string, to: string, from: string): void {
  say(
    `next: edit ${file}: name: ${to} (keep namePrefix: ${prefix}: the pods keep their names), then start the loop (loopscope real --config ${file}): it adopts them`,
  );
  say(`      the lease profile loopscope-lease-${from} stays behind, released (incus profile delete loopscope-lease-${from} removes it)`);
}

async function rename(opts: RenameOpts): Promise<void> {
  if (!opts.config) throw new UsageError('--config', 'expected the path of an hpa.yaml (see scenarios/hpa.yaml)');
  if (opts.to === undefined) throw new UsageError('--to', 'expected the new HPA name (lowercase letters, digits and dashes)');
  if (!HPA_NAME.test(opts.to))
    throw new UsageError(
      '--to',
      `expected an HPA name of lowercase letters, digits and dashes (1–63, first a letter or digit), got ${JSON.stringify(shorten(opts.to, 70))}`,
    );
  const loaded = loadRealHpaConfig(opts.config);
  const from = loaded.config.name;
  const to = opts.to;
  if (to === from) throw new UsageError('--to', `expected a name other than the config's own (${from})`);
  const remote = opts.remote ?? loaded.remote;
  const project = opts.project ?? loaded.project;
  const client = await connectChecked({ ...(remote !== undefined ? { remote } : {}), ...(project !== undefined ? { project } : {}) });
  try {
    say(
      `HPA ${from} → ${to} · ${client.endpoint}${client.project ? ` · project ${client.project}` : ''}${opts.dryRun ? ' · DRY RUN' : ''}`,
    );
    await renameWith(client, opts.config, loaded.config.namePrefix, from, to, !!opts.dryRun);
  } catch (e) {
    if (e instanceof ExitError) throw e;
    incusFailure(e, `renaming HPA ${from} to ${to}`);
  } finally {
    await client.close();
  }
}

async function renameWith(client: IncusClient, file: string, prefix: string, from: string, to: string, dryRun: boolean): Promise<void> {
  const first = await planRename(client, from, to);
  if (first.foreign.length) refuseForeign(first);
  if (first.pending.length === 0) {
    say(
      first.moved.length
        ? `nothing to re-key: ${from} owns no pods; ${to} owns the ${first.moved.length} pod(s) moved from it (${list(first.moved)})`
        : `nothing to re-key: ${from} owns no pods`,
    );
    // An earlier rename killed before it released its leases (after its last re-key) left them
    // held by a process that is gone: give them back, or loops of either name wait a lease duration.
    if (!dryRun) {
      for (const name of [from, to]) {
        const released = await releaseDeadRenameLease(client, name);
        if (released) say(released);
      }
    }
    if (first.moved.length) nextSteps(file, prefix, to, from);
    return;
  }
  if (dryRun) {
    say(await describeLease(client, from));
    say(await describeLease(client, to));
    for (const i of first.pending) say(`would re-key ${i.name} (${statusOf(i)}): ${OWNER_KEY} ${from} → ${to}`);
    if (first.moved.length) say(`already moved by an earlier rename: ${list(first.moved)}`);
    say(`dry run: nothing changed`);
    return;
  }
  // Both leases, the old name's first: no loop of either name acts while pods change owner.
  const leases: LeaderElector[] = [];
  const stopRenewing = new AbortController();
  let lost: string | undefined;
  let interrupted = false;
  const interrupt = new AbortController(); // ends a lease watch at once
  const onSignal = (sig: string) => {
    if (interrupted) process.exit(130);
    interrupted = true;
    interrupt.abort();
    say(`${sig}: stopping after the current pod (run the rename again to finish)`);
  };
  const onInt = () => onSignal('SIGINT');
  const onTerm = () => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  const results: RekeyResult[] = [];
  try {
    for (const name of [from, to]) {
      const take = await takeLeaseForRename(client, name, { say, signal: interrupt.signal });
      if ('refused' in take)
        throw new ExitError(1, interrupted ? `interrupted before any pod was re-keyed (${take.refused})` : `refused: ${take.refused}`);
      leases.push(take.held);
      void take.held.renewUntilLost((why) => {
        lost ??= `lost the lease of ${name}: ${why}`;
      }, stopRenewing.signal);
    }
    say(`leases ${from} and ${to}: held by this rename (a loop started now stands by)`);
    // Again under the leases: a loop may have created or moved pods since the first look.
    const plan = await planRename(client, from, to);
    if (plan.foreign.length) refuseForeign(plan);
    for (const inst of plan.pending) {
      if (interrupted || lost || !leases.every((l) => l.holdsLease())) break;
      const r = await rekeyInstance(client, inst.name, from, to);
      results.push(r);
      say(lineOf(r, from, to));
    }
    const rekeyed = results.filter((r) => r.result === 'rekeyed' || r.result === 'already').length;
    const unfinished = plan.pending.length - results.length + results.filter((r) => r.result === 'conflict').length;
    const why = lost ?? (interrupted ? 'interrupted' : undefined);
    if (unfinished > 0) {
      throw new ExitError(
        1,
        `${rekeyed + plan.moved.length} pod(s) now owned by ${to}, ${unfinished} still owned by ${from}${why ? ` (${why})` : ''}: run the same rename again to finish`,
      );
    }
    say(
      `renamed: ${rekeyed + plan.moved.length} pod(s) owned by ${to} (${rekeyed} re-keyed now${plan.moved.length ? `, ${plan.moved.length} by an earlier run` : ''}); ${from} owns none`,
    );
  } finally {
    stopRenewing.abort();
    for (const l of leases) await l.release();
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
  nextSteps(file, prefix, to, from);
}

function lineOf(r: RekeyResult, from: string, to: string): string {
  switch (r.result) {
    case 'rekeyed':
      return `re-keyed ${r.name}: ${OWNER_KEY} ${from} → ${to}${r.conflicts ? ` (changed meanwhile ${r.conflicts}×: read again, still ${from}'s)` : ''}`;
    case 'already':
      return `${r.name}: already ${to}'s`;
    case 'gone':
      return `${r.name}: deleted meanwhile: nothing to re-key`;
    case 'not-owned':
      return `${r.name}: now owned by "${r.owner}", not ${from}: left untouched`;
    case 'conflict':
      return `${r.name}: changed ${r.conflicts}× while re-keying (If-Match refused each time): left ${from}'s`;
  }
}

export function registerRealRename(real: Command): void {
  real
    .command('rename')
    .description("hand the config's HPA over to another name: re-key the owner key of the pods it owns")
    .option('--config <file>', 'hpa.yaml (its name is the HPA renamed)')
    .option('--to <name>', 'the new HPA name')
    .option('--dry-run', 'list what would be re-keyed and who holds the leases; change nothing')
    .option('--remote <name|url>', 'Incus remote')
    .option('--project <name>', 'Incus project')
    .addHelpText(
      'after',
      `
Only ownership moves (the instance key ${OWNER_KEY}): the pods keep their names (an Incus
instance is renamed only when stopped), so keep namePrefix in hpa.yaml. Each pod is changed with
If-Match on the read that found it the old name's: a concurrent change is read again, never
overwritten; an instance the old name does not own is never written. Refused while a loop of either
name runs (its lease is renewed; a loop run with --no-leader-elect takes no lease and cannot be
seen: stop it first) or when the new name owns pods of its own. Safe to run again after
an interruption: pods already moved are marked (${RENAMED_FROM_KEY}) and skipped, and the
leases of a rename of this host that was killed (its process gone) are taken, or released when
nothing is left to re-key, at once.
Afterwards: edit name: in hpa.yaml and start the loop; it adopts the pods.

Exit codes: 0 renamed (or nothing to do), 1 refused, interrupted or Incus failed, 2 bad input.`,
    )
    .action((_opts: unknown, cmd: Command) => rename(cmd.optsWithGlobals<RenameOpts>()));
}
