// A systemd unit that runs the real HPA the lab's way: the binary does one period and exits,
// and systemd starts it again (Restart=always, RestartSec=10 in the lab's unit), so the
// period is RestartSec plus the run time. systemd.service(5): Restart=, RestartSec=,
// RestartPreventExitStatus=; systemd.unit(5): StartLimitIntervalSec=0 disables the start rate
// limit that would otherwise stop a unit restarted forever.
export interface UnitOptions {
  /** The words that start loopscope: the clone's launcher (cli/loopscope), or node and the installed
   * package's compiled CLI (a unit's PATH may not hold the `node` its shebang asks for). */
  command: readonly string[];
  /** Absolute path of hpa.yaml. */
  config: string;
  policy?: string;
  remote?: string;
  project?: string;
  /** Seconds between runs (the lab: 10). */
  restartSec: number;
  /** Run the loop continuously instead of once per start. */
  continuous?: boolean;
  workingDirectory?: string;
}

/** loopscope's exit code for bad input (cli/run.ts): restarting cannot fix it. */
const BAD_INPUT_EXIT = 2;

/**
 * systemd.unit(5) "Specifiers": `%` starts a specifier in most settings, `%%` is a literal `%`.
 * systemd.service(5) "Command lines": `$NAME`/`${NAME}` are environment substitutions, `$$` is a
 * literal `$`; a word in double quotes may hold spaces, with C-style backslash escapes.
 */
const specifiers = (s: string) => s.replaceAll('%', '%%');
export function execWord(s: string): string {
  const escaped = specifiers(s).replaceAll('$', () => '$$');
  return /^[A-Za-z0-9_@+=:,./-]+$/.test(escaped) ? escaped : `"${escaped.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** Characters no unit line can carry (a newline would end the setting). */
export const unitUnsafe = (s: string) => /[\x00-\x1f\x7f]/.test(s);

export function systemdUnit(o: UnitOptions): string {
  const args = ['real', '--config', o.config];
  if (o.policy) args.push('--policy', o.policy);
  if (o.remote) args.push('--remote', o.remote);
  if (o.project) args.push('--project', o.project);
  if (!o.continuous) args.push('--once');
  for (const a of [...o.command, ...args, o.workingDirectory ?? '']) {
    if (unitUnsafe(a)) throw new Error(`a unit file cannot hold control characters: ${JSON.stringify(a)}`);
  }
  return [
    '[Unit]',
    'Description=loopscope HPA: scales Incus containers on memory use',
    'Wants=incus.service',
    'After=incus.service incus.socket',
    'StartLimitIntervalSec=0',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${[...o.command, ...args].map(execWord).join(' ')}`,
    // WorkingDirectory= is a path (no quoting, no $ substitution) in which specifiers expand.
    ...(o.workingDirectory ? [`WorkingDirectory=${specifiers(o.workingDirectory)}`] : []),
    // The lab's way: one period per run, started again by systemd. Continuous: restart on crash.
    `Restart=${o.continuous ? 'on-failure' : 'always'}`,
    `RestartSec=${o.restartSec}`,
    // Exit 2 is bad input (the config, an option): restarting every RestartSec cannot fix it.
    `RestartPreventExitStatus=${BAD_INPUT_EXIT}`,
    // SIGTERM lets the current create/delete finish; give it time before SIGKILL.
    'KillSignal=SIGTERM',
    'TimeoutStopSec=120',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}
