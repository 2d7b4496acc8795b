import type { Observation, RefreshInput, ResourceStatus, RetrieveInput, RunReport, SyncInput, Values } from '../../machines/puppet';
import type { OpResult, WorldModel } from '../model';
import type { RngState } from '../random';
import { drawInt, seedRng } from '../random';
import type { PuppetResourceOutcome, PuppetResourceRow, PuppetWorldSummary } from '../loops/puppet-world-schema';
import type { PuppetNote } from '../notes/puppet';
import { puppetNote } from '../notes/puppet';

/** A package in the host's repository: its versions, oldest first, and the service unit it ships. */
export interface RepoPackage {
  versions: string[];
  service?: string;
}

/** The managed host: plain data. A service unit exists when preinstalled or shipped by an installed package. */
export interface Host {
  packages: Record<string, string>;
  files: Record<string, string>;
  services: Record<string, { running: boolean; enabled: boolean }>;
  users: Record<string, { shell: string }>;
}

/** How long operations take on this host, ms. */
export interface Timings {
  retrieveMs: number;
  installMs: number;
  installJitterMs: number;
  removeMs: number;
  fileMs: number;
  serviceMs: number;
  restartMs: number;
  userMs: number;
  reportMs: number;
}
const DEFAULT_TIMINGS: Timings = {
  retrieveMs: 3000,
  installMs: 12_000,
  installJitterMs: 4000,
  removeMs: 4000,
  fileMs: 100,
  serviceMs: 1500,
  restartMs: 2000,
  userMs: 300,
  reportMs: 200,
};

type PendingOp = {
  id: number;
  kind: 'clock' | 'splay' | 'retrieve' | 'sync' | 'refresh' | 'report';
  result: OpResult;
  sync?: SyncInput;
  ref?: string;
  refs?: string[];
  report?: RunReport;
};

export interface PuppetWorld {
  rng: RngState;
  host: Host;
  repo: Record<string, RepoPackage>;
  /** Installs of a package that will still fail (−1: every one). */
  installFailures: Record<string, number>;
  timings: Timings;
  ops: PendingOp[];
  nextOpId: number;
  /** The reports the agent sent (puppetserver's reports), oldest first, and when each arrived. */
  reports: RunReport[];
  reportedAt: number[];
  /** When the world changed outside the agent (drift, repository changes), for the checker. */
  faults: { t: number; kind: PuppetFault['kind'] }[];
  /** Every change the agent made, and every change made outside it. */
  applied: { t: number; run: number; ref: string; values: Values }[];
  drifts: { t: number; ref: string; values: Values }[];
  restarts: number;
  /**
   * For each running service, the host as it was when the service last (re)started: what its
   * daemon has loaded. A file or package changed since then takes effect only at its next restart
   * (the reason for notify/subscribe). Monitor data for the checker (no-stale-service); host
   * objects are never mutated, so this holds references, not copies.
   */
  startedWith: Record<string, Host>;
}

export type PuppetFault =
  | { kind: 'drift'; ref: string; values: Values }
  | { kind: 'failInstall'; package: string; times: number }
  | { kind: 'publish'; package: string; version: string };

export function createPuppetWorld(
  seed: number,
  host: Host,
  repo: Record<string, RepoPackage>,
  timings: Partial<Timings> = {},
  installFailures: Record<string, number> = {},
): PuppetWorld {
  return {
    rng: seedRng(seed),
    host,
    repo,
    installFailures,
    timings: { ...DEFAULT_TIMINGS, ...timings },
    ops: [],
    nextOpId: 1,
    reports: [],
    reportedAt: [],
    faults: [],
    applied: [],
    drifts: [],
    restarts: 0,
    startedWith: trackStarts({}, { ...host, services: {} }, host),
  };
}

const isRunning = (h: Host, name: string) => h.services[name]?.running === true;

/** A service that starts loads the host as it is now; one that stops has nothing loaded. */
function trackStarts(started: Record<string, Host>, before: Host, after: Host): Record<string, Host> {
  let out = started;
  for (const name of new Set([...Object.keys(after.services), ...Object.keys(started)])) {
    const now = isRunning(after, name);
    if (now && !isRunning(before, name)) out = { ...out, [name]: after };
    else if (!now && name in out) {
      const { [name]: _stopped, ...rest } = out;
      out = rest;
    }
  }
  return out;
}

const parseRef = (ref: string) => {
  const m = /^(\w+)\[(.*)\]$/.exec(ref);
  if (!m) throw new Error(`not a resource reference: ${ref}`);
  return { type: m[1]!.toLowerCase(), title: m[2]! };
};
const latestOf = (w: PuppetWorld, pkg: string) => w.repo[pkg]?.versions.at(-1) ?? null;
const unitExists = (h: Host, repo: Record<string, RepoPackage>, name: string) =>
  name in h.services || Object.keys(h.packages).some((p) => repo[p]?.service === name);

/** What the providers' retrieve returns for a resource now (Puppet's property names and values). */
export function currentValues(w: PuppetWorld, host: Host, ref: string): Observation {
  const { type, title } = parseRef(ref);
  switch (type) {
    case 'package':
      return { current: { ensure: host.packages[title] ?? 'purged' }, latest: latestOf(w, title) };
    case 'file':
      return { current: title in host.files ? { ensure: 'file', content: host.files[title]! } : { ensure: 'absent' }, latest: null };
    case 'service': {
      const s = unitExists(host, w.repo, title)
        ? (host.services[title] ?? { running: false, enabled: false })
        : { running: false, enabled: false };
      return { current: { ensure: s.running ? 'running' : 'stopped', enable: String(s.enabled) }, latest: null };
    }
    case 'user':
      return { current: title in host.users ? { ensure: 'present', shell: host.users[title]!.shell } : { ensure: 'absent' }, latest: null };
    default:
      throw new Error(`unknown resource type in ${ref}`);
  }
}

type Change = { host: Host; ms: number } | { error: string; ms: number };

/** Sets values on the host as a provider would (or an administrator by hand, for drift). */
function change(w: PuppetWorld, host: Host, type: string, title: string, values: Values, should: Values): Change {
  const t = w.timings;
  if (type === 'package') {
    const ensure = values.ensure!;
    if (ensure === 'absent' || ensure === 'purged') {
      const { [title]: _gone, ...packages } = host.packages;
      // Removing a package removes the unit it ships, not just stops it: `apt-get remove` runs its
      // prerm (deb-systemd-invoke stop), deletes its files (the unit file under /lib/systemd/system
      // is not a conffile) and its postrm reloads systemd. Afterwards `systemctl start` answers
      // "Unit … not found" and Puppet's systemd provider fails the service ("Could not start
      // Service[…]", e.g. echocat/puppet-redis#38). Keeping a stopped entry made the unit look
      // preinstalled, so a later run could start a service whose package was gone.
      const unit = w.repo[title]?.service;
      let services = host.services;
      if (unit && title in host.packages && unit in services) {
        const { [unit]: _unit, ...rest } = services;
        services = rest;
      }
      return { host: { ...host, packages, services }, ms: t.removeMs };
    }
    const cmd = `/usr/bin/apt-get -q -y -o DPkg::Options::=--force-confold install ${title}${ensure ? `=${ensure}` : ''}`;
    const pkg = w.repo[title];
    if (!pkg || !pkg.versions.includes(ensure))
      return { error: `Execution of '${cmd}' returned 100: E: Version '${ensure}' for '${title}' was not found`, ms: t.removeMs };
    return { host: { ...host, packages: { ...host.packages, [title]: ensure } }, ms: t.installMs };
  }
  if (type === 'file') {
    if (values.ensure === 'absent') {
      const { [title]: _gone, ...files } = host.files;
      return { host: { ...host, files }, ms: t.fileMs };
    }
    const content = values.content ?? should.content ?? host.files[title] ?? '';
    return { host: { ...host, files: { ...host.files, [title]: content } }, ms: t.fileMs };
  }
  if (type === 'service') {
    if (!unitExists(host, w.repo, title)) {
      const verb =
        values.ensure === 'stopped'
          ? 'stop'
          : values.enable !== undefined && values.ensure === undefined
            ? values.enable === 'true'
              ? 'enable'
              : 'disable'
            : 'start';
      return {
        error: `Execution of '/usr/bin/systemctl ${verb} ${title}' returned 5: Failed to ${verb} ${title}.service: Unit ${title}.service not found.`,
        ms: t.serviceMs,
      };
    }
    const s = host.services[title] ?? { running: false, enabled: false };
    // type/service.rb: syncing ensure also syncs enable when it is managed and out of sync.
    const enable = values.enable ?? (values.ensure !== undefined ? should.enable : undefined);
    const next = {
      running: values.ensure !== undefined ? values.ensure === 'running' : s.running,
      enabled: enable !== undefined ? enable === 'true' : s.enabled,
    };
    return { host: { ...host, services: { ...host.services, [title]: next } }, ms: t.serviceMs };
  }
  if (type === 'user') {
    if (values.ensure === 'absent') {
      const { [title]: _gone, ...users } = host.users;
      return { host: { ...host, users }, ms: t.userMs };
    }
    const shell = values.shell ?? should.shell ?? host.users[title]?.shell ?? '/bin/sh';
    return { host: { ...host, users: { ...host.users, [title]: { shell } } }, ms: t.userMs };
  }
  throw new Error(`unknown resource type ${type}`);
}

function begin(world0: PuppetWorld, src: string, input: unknown, t: number) {
  let w: PuppetWorld = { ...world0, nextOpId: world0.nextOpId + 1 };
  const id = world0.nextOpId;
  const add = (op: Omit<PendingOp, 'id'>, ms: number) => ({ world: { ...w, ops: [...w.ops, { id, ...op }] }, opId: id, doneAt: t + ms });
  switch (src) {
    case 'readClock':
      return add({ kind: 'clock', result: { ok: true, output: t } }, 0);
    case 'drawSplay': {
      const { limitMs } = input as { limitMs: number }; // cast: drawSplay's input as setup() types it
      // rand(splaylimit + 1) in whole seconds (SplayJob#calculate_splay).
      const [s, rng] = drawInt(w.rng, 0, Math.floor(limitMs / 1000));
      w = { ...w, rng };
      return add({ kind: 'splay', result: { ok: true, output: s * 1000 } }, 0);
    }
    case 'retrieve': {
      const { resources } = input as RetrieveInput; // cast: setup() types this actor's input
      // Facts, catalog and every resource's current values, as found when the retrieve ends.
      return add({ kind: 'retrieve', result: { ok: true }, refs: resources.map((r) => r.ref) }, w.timings.retrieveMs);
    }
    case 'syncResource': {
      const sync = input as SyncInput; // cast: setup() types this actor's input
      const { type, title, values, should } = sync;
      let extra = 0;
      const installing = type === 'package' && values.ensure !== 'absent' && values.ensure !== 'purged';
      if (installing && w.timings.installJitterMs > 0) {
        const [v, rng] = drawInt(w.rng, 0, w.timings.installJitterMs);
        extra = v;
        w = { ...w, rng };
      }
      const left = w.installFailures[title] ?? 0;
      if (installing && left !== 0) {
        w = { ...w, installFailures: { ...w.installFailures, [title]: left > 0 ? left - 1 : left } };
        const error = `Execution of '/usr/bin/apt-get -q -y install ${title}' returned 100: E: Failed to fetch http://deb.debian.org/debian/pool/main/${title[0]}/${title}/${title}_${values.ensure}_amd64.deb  503 Service Unavailable`;
        return add({ kind: 'sync', result: { ok: false, error } }, w.timings.installMs + extra);
      }
      // The change lands when the operation ends (against the host as it is then); this only times it.
      const c = change(w, w.host, type, title, values, should);
      return add({ kind: 'sync', result: { ok: true }, sync }, c.ms + extra);
    }
    case 'refreshResource': {
      const { ref } = input as RefreshInput; // cast: setup() types this actor's input
      return add({ kind: 'refresh', result: { ok: true }, ref }, w.timings.restartMs);
    }
    case 'sendReport': {
      const report = input as RunReport; // cast: setup() types this actor's input
      return add({ kind: 'report', result: { ok: true }, report }, w.timings.reportMs);
    }
    default:
      throw new Error(`puppet world has no actor "${src}"`);
  }
}

function complete(world0: PuppetWorld, opId: number, t: number): { world: PuppetWorld; result: OpResult } {
  const op = world0.ops.find((o) => o.id === opId);
  if (!op) throw new Error(`unknown operation ${opId}`);
  let w: PuppetWorld = { ...world0, ops: world0.ops.filter((o) => o.id !== opId) };
  if (op.kind === 'retrieve') {
    return { world: w, result: { ok: true, output: Object.fromEntries((op.refs ?? []).map((r) => [r, currentValues(w, w.host, r)])) } };
  }
  if (op.kind === 'sync' && op.result.ok && op.sync) {
    const { ref, type, title, values, should } = op.sync;
    const c = change(w, w.host, type, title, values, should);
    if ('error' in c) return { world: w, result: { ok: false, error: c.error } };
    w = {
      ...w,
      host: c.host,
      startedWith: trackStarts(w.startedWith, w.host, c.host),
      applied: [...w.applied, { t, run: op.sync.run, ref, values }],
    };
    return { world: w, result: { ok: true, output: currentValues(w, w.host, ref).current } };
  }
  if (op.kind === 'refresh') {
    const { title } = parseRef(op.ref!);
    if (!w.host.services[title]?.running)
      return { world: w, result: { ok: false, error: `Execution of '/usr/bin/systemctl restart ${title}' returned 5` } };
    return { world: { ...w, restarts: w.restarts + 1, startedWith: { ...w.startedWith, [title]: w.host } }, result: { ok: true } };
  }
  if (op.kind === 'report')
    return { world: { ...w, reports: [...w.reports, op.report!], reportedAt: [...w.reportedAt, t] }, result: { ok: true } };
  return { world: w, result: op.result };
}

function describe(values: Values): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} => ${v.length > 24 ? `${v.slice(0, 21)}…` : `'${v}'`}`)
    .join(', ');
}

function inject(w0: PuppetWorld, fault: PuppetFault, t: number): { world: PuppetWorld; note: PuppetNote } {
  const w = { ...w0, faults: [...w0.faults, { t, kind: fault.kind }] };
  if (fault.kind === 'failInstall') {
    return {
      world: { ...w, installFailures: { ...w.installFailures, [fault.package]: fault.times } },
      note: puppetNote('puppet.installsWillFail', { pkg: fault.package, times: fault.times }),
    };
  }
  if (fault.kind === 'publish') {
    const pkg = w.repo[fault.package] ?? { versions: [] };
    return {
      world: { ...w, repo: { ...w.repo, [fault.package]: { ...pkg, versions: [...pkg.versions, fault.version] } } },
      note: puppetNote('puppet.published', { pkg: fault.package, version: fault.version }),
    };
  }
  const { type, title } = parseRef(fault.ref);
  const c = change(w, w.host, type, title, fault.values, fault.values);
  if ('error' in c) return { world: w, note: puppetNote('puppet.driftFailed', { ref: fault.ref, error: c.error }) };
  return {
    world: {
      ...w,
      host: c.host,
      startedWith: trackStarts(w.startedWith, w.host, c.host),
      drifts: [...w.drifts, { t, ref: fault.ref, values: fault.values }],
    },
    note: puppetNote('puppet.drifted', { change: `${fault.ref} ${describe(fault.values)}` }),
  };
}

export function resourceRow(s: ResourceStatus): PuppetResourceRow {
  // A failed restart fails the report (Report#compute_status), so it shows as failed too.
  const status: PuppetResourceOutcome =
    s.failed || s.failedToRestart ? 'failed' : s.skipped ? 'skipped' : s.changed ? 'changed' : s.noop ? 'noop' : 'in sync';
  return {
    ref: s.ref,
    status,
    change: status === 'changed' ? (s.corrective ? 'corrective' : 'intentional') : null,
    outOfSync: s.outOfSync,
    restarted: s.restarted,
    message: s.message,
  };
}

function summary(w: PuppetWorld): PuppetWorldSummary {
  const r = w.reports.at(-1);
  return {
    packages: w.host.packages,
    files: Object.fromEntries(Object.entries(w.host.files).map(([p, c]) => [p, c.length > 24 ? `${c.slice(0, 21)}…` : c])),
    services: Object.fromEntries(
      Object.entries(w.host.services).map(([n, s]) => [n, `${s.running ? 'running' : 'stopped'}${s.enabled ? ', enabled' : ''}`]),
    ),
    users: Object.keys(w.host.users),
    last: r
      ? {
          run: r.run,
          status: r.status,
          exitCode: r.exitCode,
          changes: r.changes,
          failed: r.resources.failed,
          skipped: r.resources.skipped,
          corrective: r.corrective,
          noop: r.noop,
        }
      : null,
    reports: w.reports.length,
    agentChanges: w.applied.length,
    drifts: w.drifts.length,
    restarts: w.restarts,
    resources: r ? r.statuses.map(resourceRow) : [],
  };
}

export const puppetWorldModel: WorldModel<PuppetWorld, PuppetFault, PuppetWorldSummary> = {
  begin,
  complete,
  inject,
  summary: (w) => summary(w),
};
