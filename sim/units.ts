/**
 * Byte sizes the way Incus reads limits.memory (shared/units ParseByteSizeString): decimal
 * kB/MB/GB/TB (10^3…) and binary KiB/MiB/GiB/TiB (2^10…), or a bare number of bytes.
 */
const BYTE_UNITS: Record<string, number> = {
  '': 1,
  B: 1,
  kB: 1e3,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  TiB: 1024 ** 4,
};

export function parseBytes(text: string | number): number | null {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? Math.floor(text) : null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$/.exec(text);
  if (!m) return null;
  const unit = BYTE_UNITS[m[2] ?? ''];
  return unit === undefined ? null : Math.round(Number(m[1]) * unit);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(2)}GiB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)}MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)}KiB`;
  return `${bytes}B`;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Durations like systemd and Go write them: "15s", "1m30s", "2h", "500ms"; a bare number is ms. */
export function parseDuration(text: string | number): number | null {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? text : null;
  const s = text.trim();
  if (/^\d+$/.test(s)) return Number(s);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * DURATION_UNITS[m[2]!]!;
    consumed = re.lastIndex;
  }
  return consumed === s.length && consumed > 0 ? Math.round(total) : null;
}

export function formatDuration(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(Math.round(ms));
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const msPart = rest - s * 1000;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${sign}${pad(h)}:${pad(m)}:${pad(s)}${msPart ? `.${String(msPart).padStart(3, '0')}` : ''}`;
}
