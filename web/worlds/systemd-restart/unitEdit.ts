import type { UnitConfig } from '../../../machines/systemd-restart';
import { formatSpan, parseUnitKeys } from '../../../sim/loops/systemd-restart';

const UNIT_FILE = 'app.service';

const span = (ms: number) => (ms === 0 ? '0' : formatSpan(ms));

/** The running unit's restart keys as a unit file; StartLimit*= live in [Unit] (systemd.unit(5)). */
export function unitToText(u: UnitConfig): string {
  const service = [`Restart=${u.restart}`, `RestartSec=${span(u.restartSecMs)}`];
  if (u.restartSteps > 0) service.push(`RestartSteps=${u.restartSteps}`);
  if (u.restartMaxDelayMs !== null) service.push(`RestartMaxDelaySec=${span(u.restartMaxDelayMs)}`);
  if (u.watchdogMs > 0) service.push(`WatchdogSec=${span(u.watchdogMs)}`);
  return [
    '[Unit]',
    `StartLimitIntervalSec=${span(u.startLimitIntervalMs)}`,
    `StartLimitBurst=${u.startLimitBurst}`,
    '',
    '[Service]',
    ...service,
  ].join('\n');
}

export type UnitEditResult = { ok: true; unit: UnitConfig } | { ok: false; errors: string[] };

/** Reads `Key=value` lines under [Unit]/[Service] and validates them as a scenario's `unit:` is. */
export function parseUnitEdit(text: string, running: UnitConfig): UnitEditResult {
  const name = running.name || UNIT_FILE;
  const keys: Record<string, string> = {};
  const errors: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) return;
    if (/^\[.*\]$/.test(line)) {
      if (line !== '[Unit]' && line !== '[Service]')
        errors.push(`${name}: line ${i + 1}: expected the section [Unit] or [Service], got ${line}`);
      return;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) {
      errors.push(`${name}: line ${i + 1}: expected Key=value, got ${JSON.stringify(line)}`);
      return;
    }
    keys[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  });
  if (errors.length) return { ok: false, errors };
  return parseUnitKeys(name, keys, running);
}
