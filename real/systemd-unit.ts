// A systemd unit that runs the real HPA the lab's way: the binary does one period and exits,
// and systemd starts it again (Restart=always, RestartSec=10 in the lab's unit), so the
// period is RestartSec plus the run time. systemd.service(5): Restart=, RestartSec=;
// systemd.unit(5): StartLimitIntervalSec=0 disables the start rate limit that would otherwise
// stop a unit restarted forever.
export interface UnitOptions {
  /** Absolute path of the loopscope launcher (cli/loopscope). */
  command: string;
  /** Absolute path of hpa.yaml. */
  config: string;
  policy?: string;
  remote?: string;
  /** Seconds between runs (the lab: 10). */
  restartSec: number;
  /** Run the loop continuously instead of once per start. */
  continuous?: boolean;
  workingDirectory?: string;
}

const quote = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\])/g, '\\$1')}"`);

export function systemdUnit(o: UnitOptions): string {
  const args = ['real', '--config', o.config];
  if (o.policy) args.push('--policy', o.policy);
  if (o.remote) args.push('--remote', o.remote);
  if (!o.continuous) args.push('--once');
  return [
    '[Unit]',
    'Description=loopscope HPA: scales Incus containers on memory use',
    'Wants=incus.service',
    'After=incus.service incus.socket',
    'StartLimitIntervalSec=0',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${[o.command, ...args].map(quote).join(' ')}`,
    ...(o.workingDirectory ? [`WorkingDirectory=${quote(o.workingDirectory)}`] : []),
    // The lab's way: one period per run, started again by systemd. Continuous: restart on crash.
    `Restart=${o.continuous ? 'on-failure' : 'always'}`,
    `RestartSec=${o.restartSec}`,
    // SIGTERM lets the current create/delete finish; give it time before SIGKILL.
    'KillSignal=SIGTERM',
    'TimeoutStopSec=120',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}
