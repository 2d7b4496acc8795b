import type { Command } from 'commander';
import { watchFile, unwatchFile, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { ModulePolicy } from '../machines/incus-hpa';
import { POLICY_NAMES } from '../machines/incus-hpa';
import { formatTimeline } from '../sim/format';
import { traceJson } from '../sim/trace-schema';
import { hpaColumns } from '../sim/loops/incus-hpa-format';
import { parseBytes, parseDuration, formatBytes } from '../sim/units';
import type { RealHpaConfig } from '../real/hpa-config';
import { loadRealHpaConfig, parseLiveEdit } from '../real/hpa-config';
import { readInputFile } from '../sim/scenario/load';
import { parseYamlText } from '../sim/scenario/load-text';
import type { RealFrame } from '../real/hpa-runner';
import { RealHpaRunner } from '../real/hpa-runner';
import { Leadership } from '../real/leadership';
import { LAUNCHER, PACKAGE_ROOT } from './package-root';
import { registerRealStatus } from './real-status';
import { registerRealRename } from './real-rename';
import type { IncusClient } from '../real/incus';
import { IncusError } from '../real/incus';
import { LOAD_FILE, LoadDriver, spreadLoad } from '../real/load';
import type { LoadTimeline } from '../real/load-timeline';
import { loadLoadTimeline } from '../real/load-timeline';
import type { LiveSource } from '../real/live-server';
import { LiveServer, parseLivePort } from '../real/live-server';
import { createInspector } from '@statelyai/inspect';
import { InspectSocket, parseInspectUrl } from './inspect/inspect-socket';
import { RealMetrics } from '../real/metrics';
import type { MetricsAddress } from '../real/metrics-server';
import { MetricsServer, parseMetricsAddress } from '../real/metrics-server';
import type { LogFormat } from '../real/run-log';
import { LOG_FORMATS, RunLog } from '../real/run-log';
import { ttyApprover } from '../real/step-prompt';
import { systemdUnit, unitUnsafe } from '../real/systemd-unit';
import { shorten, shortenValues } from '../sim/scenario/errors';
import { ExitError } from './exit';
import { connectChecked, incusFailure } from './incus-connect';
import { UsageError } from './usage';

interface RunOpts {
  config?: string;
  policy?: string;
  once?: boolean;
  step?: boolean;
  dryRun?: boolean;
  remote?: string;
  project?: string;
  json?: boolean;
  out?: string;
  live?: string | true;
  leaderElect?: boolean;
  leaseDuration?: string;
  renewDeadline?: string;
  retryPeriod?: string;
  metrics?: string;
  logFormat?: string;
  inspect?: string;
}

function parseLogFormat(text: string | undefined): LogFormat {
  if (text === undefined) return 'text';
  const format = LOG_FORMATS.find((f) => f === text);
  if (!format) throw new UsageError('--log-format', `expected ${LOG_FORMATS.join(' or ')}, got ${JSON.stringify(shorten(text, 40))}`);
  return format;
}

function parseMetrics(text: string | undefined): MetricsAddress | undefined {
  if (text === undefined) return undefined;
  const address = parseMetricsAddress(text);
  if (!address)
    throw new UsageError(
      '--metrics',
      `expected [HOST:]PORT with HOST an IP address or localhost (e.g. 127.0.0.1:9464; a bare port binds 127.0.0.1), PORT 0–65535, got ${JSON.stringify(shorten(text, 60))}`,
    );
  return address;
}

const fail = (message: string, code: number): never => {
  throw new ExitError(code, message);
};

/** The Incus remote and project: the command line's, else the config file's. */
function where(opts: { remote?: string; project?: string }, config: RealHpaConfig): { remote?: string; project?: string } {
  const remote = opts.remote ?? config.remote;
  const project = opts.project ?? config.project;
  return { ...(remote !== undefined ? { remote } : {}), ...(project !== undefined ? { project } : {}) };
}

/** kube-controller-manager's --leader-elect-lease-duration/-renew-deadline/-retry-period, as durations. */
function leaseTimings(opts: RunOpts): { leaseDurationMs?: number; renewDeadlineMs?: number; retryPeriodMs?: number } {
  const out: { leaseDurationMs?: number; renewDeadlineMs?: number; retryPeriodMs?: number } = {};
  const read = (flag: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    const ms = parseDuration(text);
    if (ms === null || ms < 100 || ms > 3_600_000) throw new UsageError(flag, `expected a duration from 100ms to 1h, got "${text}"`);
    return ms;
  };
  const lease = read('--lease-duration', opts.leaseDuration);
  const renew = read('--renew-deadline', opts.renewDeadline);
  const retry = read('--retry-period', opts.retryPeriod);
  if (lease !== undefined) out.leaseDurationMs = lease;
  if (renew !== undefined) out.renewDeadlineMs = renew;
  if (retry !== undefined) out.retryPeriodMs = retry;
  const [l, r, p] = [lease ?? 15_000, renew ?? 10_000, retry ?? 2_000];
  if (!(l > r && r > p * 1.2))
    throw new UsageError(
      '--lease-duration',
      `expected lease duration > renew deadline > 1.2 × retry period (client-go), got ${l} ms, ${r} ms, ${p} ms`,
    );
  return out;
}

/** One timeline line per noted frame, formatted exactly like `loopscope sim`. */
function timelineLine(frame: RealFrame): string | undefined {
  if (frame.note === undefined) return undefined;
  return formatTimeline({ loop: '', scenario: '', seed: 0, frames: [frame] }, hpaColumns).split('\n')[1];
}

function requireConfig(config: string | undefined): string {
  if (!config) throw new UsageError('--config', 'expected the path of an hpa.yaml (see scenarios/hpa.yaml)');
  return config;
}

async function runLoop(opts: RunOpts): Promise<void> {
  const file = requireConfig(opts.config);
  const livePort = opts.live === undefined ? undefined : parseLivePort(opts.live);
  if (livePort === null) throw new UsageError('--live', `expected a port 0–65535 (none or 0: a free port), got "${String(opts.live)}"`);
  // With --live the browser can answer, so a terminal is optional.
  if (opts.step && !process.stdin.isTTY && livePort === undefined)
    throw new UsageError('--step', 'expected a terminal on stdin (or --live) to ask before each act');
  const logFormat = parseLogFormat(opts.logFormat);
  const metricsAddress = parseMetrics(opts.metrics);
  const inspectUrl = opts.inspect === undefined ? undefined : parseInspectUrl(opts.inspect);
  if (typeof inspectUrl === 'string') throw new UsageError('--inspect', inspectUrl);
  // Bad config → InputErrors → exit 2 before anything is contacted or created.
  // The run's policy modules: the machine decides with them; live edits load into the same map.
  const policies = new Map<string, ModulePolicy>();
  let current: RealHpaConfig = loadRealHpaConfig(file, opts.policy, policies);
  const client = await connectChecked(where(opts, current));
  let stopping: Promise<void> | undefined;
  // With --json stdout is the trace (at exit): the timeline is not printed.
  const log = new RunLog({
    format: logFormat,
    epoch: () => runner?.epoch ?? Date.now(),
    textLine: timelineLine,
    out: (line) => {
      if (!opts.json) process.stdout.write(`${line}\n`);
    },
    err: (line) => {
      process.stderr.write(`${line}\n`);
    },
  });
  const say = (line: string) => log.message('info', line);
  let runner: RealHpaRunner | undefined;
  const inspectSocket = inspectUrl
    ? await InspectSocket.open(inspectUrl, (why) => log.message('warn', `--inspect: ${why}; the loop goes on without it`))
    : undefined;
  const live =
    livePort === undefined
      ? undefined
      : await startLive(livePort, {
          scenario: basename(file).replace(/\.ya?ml$/, ''),
          endpoint: client.endpoint,
          step: !!opts.step,
          dryRun: !!opts.dryRun,
          config: () => current.config,
          context: () => runner?.context,
        });
  // The actor's own inspection (XState's `inspect` option), as createWebSocketInspector would send it:
  // one inspector for --inspect's receiver and the live socket, so both carry the same events.
  const inspector =
    inspectSocket || live
      ? createInspector(
          {
            send: (event) => {
              inspectSocket?.send(event);
              live?.inspection(event);
            },
          },
          { autoStart: false, serializationDepthLimit: 64 },
        )
      : undefined;
  const tty =
    opts.step && process.stdin.isTTY
      ? ttyApprover(
          () => runner?.context,
          () => {
            void shutdown('quit');
          },
        )
      : undefined;
  const approve = opts.step ? (live ? live.approver(tty, say) : tty) : undefined;
  // One leader per HPA name (real/leadership.ts); a dry run acts on nothing and takes no lease.
  const leader =
    opts.dryRun || opts.leaderElect === false ? undefined : new Leadership(client, current.config.name, say, leaseTimings(opts));
  const metrics =
    metricsAddress === undefined
      ? undefined
      : new RealMetrics(current.config.name, {
          ...(leader ? { lease: () => ({ holder: leader.elector.holder, leading: leader.holdsLease() }) } : {}),
          events: () => {
            const e = runner?.events;
            return e && runner ? { connected: e.connected, reconnects: e.reconnects, wakeups: runner.wakeCount } : undefined;
          },
        });
  runner = new RealHpaRunner({
    client,
    config: current,
    policies,
    scenario: basename(file).replace(/\.ya?ml$/, ''),
    ...(leader ? { canAct: () => leader.holdsLease() } : {}),
    // Without --out/--json nobody reads the trace: keep only a recent window in memory.
    ...(opts.out || opts.json ? {} : { maxFrames: 1_000 }),
    ...(opts.dryRun ? { dryRun: true } : {}),
    ...(approve ? { approve } : {}),
    onFrame: (f, facts) => {
      live?.frame(f, facts.taken === true);
      log.frame(f, facts);
      metrics?.frame(f, facts);
    },
    ...(inspector ? { inspect: inspector.inspect } : {}),
  });
  const r = runner;
  const metricsServer = metricsAddress === undefined || !metrics ? undefined : await startMetrics(metricsAddress, metrics, log);
  log.header(
    `# incus-hpa · real ${client.endpoint} · config ${file} · policy ${current.config.policy}${opts.dryRun ? ' · DRY RUN' : ''}`,
    'started',
    { hpa: current.config.name, endpoint: client.endpoint, config: file, policy: current.config.policy, dryRun: !!opts.dryRun },
  );

  const finish = async (code: number) => {
    unwatchFile(file);
    // The inspector hands each event on in a timer of its own (createInspector's idleCallback): one more turn sends the last.
    if (inspector) await new Promise((r) => setTimeout(r, 0));
    await live?.close();
    await metricsServer?.close();
    await inspectSocket?.close();
    const json = traceJson(r.trace());
    if (opts.out) writeFileSync(opts.out, json + '\n');
    if (opts.json) process.stdout.write(json + '\n');
    await client.close();
    process.exit(code);
  };
  // SIGINT/SIGTERM: let the create/delete in progress finish, then exit 0. A second signal exits at once.
  function shutdown(why: string): Promise<void> {
    if (stopping) {
      log.message('warn', `${why} again: exiting now`);
      process.exit(130);
    }
    say(`${why}: finishing the current operation, then exiting`);
    live?.skipPending();
    stopping = r
      .stop()
      .then(() => leader?.release())
      .then(() => finish(0));
    return stopping;
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (leader) {
    // A signal while standing by: shutdown() releases and exits. Awaited, not returned from: main exits
    // once this function returns, and would cut the release short.
    if (!(await leader.waitToLead())) return stopping;
    leader.keepLeading((why) => {
      r.abortNow(`lost the lease: ${why}`);
      void finish(1);
    });
  }
  try {
    await r.start();
  } catch (e) {
    // A signal during adoption aborts its requests: shutdown() releases the lease and exits 0 (awaited, as above).
    if (stopping) return stopping;
    if (e instanceof IncusError) {
      log.message('error', `adopting owned pods failed: ${shortenValues(e.message, 240)}`);
      return finish(1);
    }
    throw e;
  }
  if (opts.once) {
    const outcome = await r.runOnce();
    if (stopping) return stopping;
    await r.stop();
    await leader?.release();
    if (outcome === 'error') log.message('error', `the period ended in an error: ${r.context?.lastError ?? 'unknown'}`);
    return finish(outcome === 'done' ? 0 : 1);
  }
  // Edits to the config file apply from the next phase; a refused edit is reported and ignored.
  // The file is read twice, 250 ms apart, and used only when both reads agree: an editor
  // writing in place is caught between truncation and the last write.
  let reading = false;
  watchFile(file, { interval: 500 }, (now, before) => {
    if ((now.mtimeMs === before.mtimeMs && now.size === before.size) || reading) return;
    reading = true;
    void settledText(file)
      .then((text) => {
        if (text === undefined) return; // still changing: the next change event reads it again
        const next = parseLiveEdit(current, parseYamlText(file, text), opts.policy, policies);
        if (!next) return;
        current = next;
        r.update(next);
      })
      .catch((e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        log.message('warn', `config edit ignored (the loop keeps its last valid config): ${message}`);
        r.note(`config edit ignored: ${message.split('\n')[0]}`);
      })
      .finally(() => {
        reading = false;
      });
  });
  await new Promise<never>(() => undefined);
}

/** The file's text if two reads 250 ms apart agree (undefined while it is still being written). */
async function settledText(file: string): Promise<string | undefined> {
  const first = readInputFile(file);
  await new Promise((r) => setTimeout(r, 250));
  return readInputFile(file) === first ? first : undefined;
}

/** Serves /metrics; prints where on stderr. A port that cannot be bound is the environment: exit 1. */
async function startMetrics(address: MetricsAddress, metrics: RealMetrics, log: RunLog): Promise<MetricsServer> {
  try {
    const server = await MetricsServer.start(address, metrics);
    log.message('info', `metrics: ${server.url}`, { metrics: server.url });
    return server;
  } catch (e) {
    return fail(
      `--metrics: cannot listen on ${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}: ${e instanceof Error ? e.message : String(e)}`,
      1,
    );
  }
}

/** Starts the live server and prints its URL (with the token) on stderr, so --json stays clean. */
async function startLive(port: number, source: LiveSource): Promise<LiveServer> {
  try {
    const server = await LiveServer.start(source, port);
    process.stderr.write(`live: ${server.url}\n`);
    return server;
  } catch (e) {
    return fail(`--live: cannot listen on 127.0.0.1:${port}: ${e instanceof Error ? e.message : String(e)}`, 1);
  }
}

function parseDemand(text: string): number {
  const bytes = parseBytes(text);
  if (bytes === null) throw new UsageError('--demand', `expected a size like 300MB, 256MiB or 0, got "${text}"`);
  return bytes;
}

interface LoadOpts {
  demand?: string;
  config?: string;
  follow?: boolean;
  scenario?: string;
  speed?: string;
  remote?: string;
  project?: string;
  interval?: string;
}

async function runLoad(opts: LoadOpts): Promise<void> {
  const file = requireConfig(opts.config);
  const loaded = loadRealHpaConfig(file);
  const { config } = loaded;
  if (opts.demand === undefined && !opts.scenario) throw new UsageError('--demand', 'expected --demand SIZE or --scenario FILE');
  const speed = opts.speed === undefined ? 1 : Number(opts.speed);
  if (!(speed > 0)) throw new UsageError('--speed', `expected a number > 0 (e.g. 15 plays a 15 s period in 1 s), got "${opts.speed}"`);
  const timeline = opts.scenario ? scaleTimeline(loadLoadTimeline(opts.scenario), speed) : undefined;
  const demand = opts.demand === undefined ? 0 : parseDemand(opts.demand);
  const interval = opts.interval === undefined ? 500 : parseDuration(opts.interval);
  if (interval === null || interval < 50) throw new UsageError('--interval', `expected a duration ≥ 50ms, got "${opts.interval}"`);
  const client = await connectChecked(where(opts, loaded));
  try {
    await loadWith(client, config.name, opts, demand, interval, timeline);
  } catch (e) {
    await client.close().catch(() => undefined);
    incusFailure(e, `real load on ${client.endpoint}`);
  }
}

/** Node timers hold at most 2^31−1 ms (≈ 24.8 days); longer waits are chained. */
async function sleepUntil(at: number): Promise<void> {
  for (let left = at - Date.now(); left > 0; left = at - Date.now()) await new Promise((r) => setTimeout(r, Math.min(left, 2 ** 31 - 1)));
}

async function loadWith(
  client: IncusClient,
  hpa: string,
  opts: LoadOpts,
  demand: number,
  interval: number,
  timeline: LoadTimeline | undefined,
): Promise<void> {
  const config = { name: hpa };
  if (!opts.follow && !timeline) {
    const loads = await spreadLoad(client, config.name, demand);
    if (loads.length === 0) process.stderr.write(`loopscope: no running pod owned by "${config.name}": nothing to load\n`);
    for (const l of loads) {
      process.stdout.write(
        `${l.name}: ${l.mib} MiB in ${LOAD_FILE}${l.returnCode === 0 ? '' : ` (dd exit ${l.returnCode}${l.returnCode === 137 ? ': OOM-killed at limits.memory' : ''})`}\n`,
      );
    }
    await client.close();
    return;
  }
  // --follow / --scenario: keep the demand spread as the HPA adds and removes pods.
  const driver = new LoadDriver(client, config.name, interval);
  const t0 = Date.now();
  let logged = 0;
  const flush = () => {
    for (; logged < driver.log.length; logged++)
      process.stdout.write(`${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s ${driver.log[logged]}\n`);
  };
  const stop = async () => {
    await driver.stop();
    flush();
    await driver.setDemand(0).catch(() => undefined);
    flush();
    await client.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await driver.setDemand(timeline?.initial ?? demand);
  driver.start();
  const logTimer = setInterval(flush, 200);
  if (timeline) {
    for (const step of timeline.steps) {
      await sleepUntil(t0 + step.at);
      process.stdout.write(`${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s demand → ${formatBytes(step.bytes)}\n`);
      await driver.setDemand(step.bytes);
    }
    if (timeline.durationMs !== undefined) {
      await sleepUntil(t0 + timeline.durationMs);
      clearInterval(logTimer);
      return stop();
    }
  }
  await new Promise<never>(() => undefined);
}

/** --speed N: the scenario's times divided by N (a scenario written for 15 s periods, run with 1 s). */
function scaleTimeline(t: LoadTimeline, speed: number): LoadTimeline {
  return { initial: t.initial, steps: t.steps.map((s) => ({ at: s.at / speed, bytes: s.bytes })), durationMs: t.durationMs / speed };
}

export function registerReal(program: Command): void {
  const real = program
    .command('real')
    .description('run the HPA machine against a real Incus host (unix socket or --remote)')
    .option('--config <file>', "hpa.yaml (the seed's keys + loopscope's; see scenarios/hpa.yaml)")
    .option('--policy <name>', `HPA policy: ${POLICY_NAMES.join('|')} (overrides the config's)`)
    .option('--once', "run one period, then exit (0 done, 1 error): the lab's systemd way")
    .option('--step', 'ask on the terminal before each create/delete')
    .option('--live [port]', 'serve the run to the web lab on ws://127.0.0.1:PORT (default: a free port; prints the URL with its token)')
    .option('--dry-run', 'observe and decide, never create, stop or delete')
    .option('--remote <name|url>', 'an incus CLI remote name, or https://host:8443 (default: the local socket)')
    .option('--project <name>', 'Incus project')
    .option('--json', 'print the trace JSON (at exit) instead of the timeline')
    .option('--out <file>', 'also write the trace JSON to this file at exit')
    .option('--no-leader-elect', "do not take the HPA's lease (only one copy may run then!)")
    .option('--lease-duration <duration>', 'leader election: a standby takes over this long after the last renewal it saw (default 15s)')
    .option('--renew-deadline <duration>', 'leader election: the leader stops acting when it could not renew for this long (default 10s)')
    .option('--retry-period <duration>', 'leader election: how often to renew or try to acquire (default 2s)')
    .option('--metrics <[host:]port>', 'serve Prometheus metrics at http://HOST:PORT/metrics (a bare port binds 127.0.0.1)')
    .option('--inspect <ws-url>', "send the loop's actors, events and snapshots to an XState inspector (Stately's protocol over WebSocket)")
    .option('--log-format <text|json>', 'text (default: the timeline and loopscope: lines) or json (one JSON object per line)')
    .action((opts: RunOpts) => runLoop(opts));

  registerRealStatus(real);
  registerRealRename(real);

  real
    .command('systemd-unit')
    .description("print a systemd unit that runs `loopscope real --once` every RestartSec, the lab's way")
    .option('--config <file>', 'hpa.yaml (made absolute)')
    .option('--policy <name>', 'HPA policy')
    .option('--remote <name|url>', 'Incus remote')
    .option('--project <name>', 'Incus project')
    .option('--restart-sec <seconds>', 'seconds between runs (the lab: 10)', '10')
    .option('--continuous', 'run the loop continuously (Restart=on-failure) instead of once per start')
    .action((_opts: unknown, cmd: Command) => {
      // The root program does not use positional options, so `real`'s own --config/--remote catch
      // these flags too: read them merged with the parent's.
      const opts = cmd.optsWithGlobals<{
        config?: string;
        policy?: string;
        remote?: string;
        project?: string;
        restartSec: string;
        continuous?: boolean;
      }>();
      const file = resolve(requireConfig(opts.config));
      loadRealHpaConfig(file, opts.policy);
      if (!/^\d{1,8}$/.test(opts.restartSec))
        throw new UsageError('--restart-sec', `expected whole seconds (0–99999999), got "${opts.restartSec}"`);
      for (const [option, value] of [
        ['--config', file],
        ['--remote', opts.remote],
        ['--project', opts.project],
      ] as const) {
        if (value !== undefined && unitUnsafe(value))
          throw new UsageError(option, `expected no control characters (a unit file line cannot hold them), got ${JSON.stringify(value)}`);
      }
      process.stdout.write(
        systemdUnit({
          command: LAUNCHER,
          config: file,
          restartSec: Number(opts.restartSec),
          workingDirectory: PACKAGE_ROOT,
          ...(opts.policy ? { policy: opts.policy } : {}),
          ...(opts.remote ? { remote: opts.remote } : {}),
          ...(opts.project ? { project: opts.project } : {}),
          ...(opts.continuous ? { continuous: true } : {}),
        }),
      );
    });

  real
    .command('load')
    .description("spread a memory demand across the HPA's running pods (writes to /dev/shm via exec)")
    .option('--demand <size>', 'total demand, e.g. 300MB; 0 removes it')
    .option('--config <file>', 'hpa.yaml (whose pods to load)')
    .option('--follow', 'keep re-spreading as pods come and go, until SIGINT (then remove the load)')
    .option('--scenario <file>', "follow a scenario's demand timeline (timeline entries with `demand`)")
    .option('--speed <factor>', 'play the scenario timeline this many times faster (15: a 15 s period becomes 1 s)')
    .option('--interval <duration>', 'how often --follow rebalances', '500ms')
    .option('--remote <name|url>', 'Incus remote')
    .option('--project <name>', 'Incus project')
    .action((_opts: unknown, cmd: Command) => runLoad(cmd.optsWithGlobals()));
}
