// A strict reader of the Prometheus text exposition format 0.0.4 (prometheus.io/docs/instrumenting/
// exposition_formats): every line is `# HELP`, `# TYPE` or a sample whose family was TYPEd before;
// names and label names match the documented grammar, label values use only \\, \" and \n escapes.
// Throws on the first line that breaks the grammar, naming it.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
}

const METRIC = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value ${JSON.stringify(text)} in: ${line}`);
  return Number(text);
}

/** Labels `{a="x",b="y\"z"}` from position 0 of `rest`; returns them and what follows. */
function parseLabels(rest: string, line: string): { labels: Record<string, string>; after: string } {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    if (rest[i] === '}') return { labels, after: rest.slice(i + 1) };
    const eq = rest.indexOf('=', i);
    const name = rest.slice(i, eq);
    if (eq < 0 || !LABEL.test(name) || rest[eq + 1] !== '"') throw new Error(`bad label at ${i} in: ${line}`);
    if (name in labels) throw new Error(`label ${name} twice in: ${line}`);
    let value = '';
    let j = eq + 2;
    for (; j < rest.length && rest[j] !== '"'; j++) {
      if (rest[j] === '\n') throw new Error(`raw newline in a label value: ${line}`);
      if (rest[j] !== '\\') {
        value += rest[j];
        continue;
      }
      const esc = rest[++j];
      if (esc === '\\') value += '\\';
      else if (esc === '"') value += '"';
      else if (esc === 'n') value += '\n';
      else throw new Error(`bad escape \\${esc ?? ''} in: ${line}`);
    }
    if (rest[j] !== '"') throw new Error(`unterminated label value in: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (rest[i] === ',') i++;
    else if (rest[i] !== '}') throw new Error(`expected , or } at ${i} in: ${line}`);
  }
}

const familyOf = (name: string, types: Map<string, string>) => {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    const base = name.endsWith(suffix) ? name.slice(0, -suffix.length) : undefined;
    if (base && (types.get(base) === 'histogram' || (suffix !== '_bucket' && types.get(base) === 'summary'))) return base;
  }
  return name;
};

export function parseExposition(text: string): Exposition {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) continue; // a plain comment
      if (!METRIC.test(m[2]!)) throw new Error(`bad metric name in: ${line}`);
      if (m[1] === 'TYPE') {
        if (!TYPES.has(m[3]!)) throw new Error(`bad type in: ${line}`);
        if (types.has(m[2]!)) throw new Error(`TYPE twice for ${m[2]}`);
        types.set(m[2]!, m[3]!);
      } else if (/\\[^\\n]/.test(m[3]!.replace(/\\\\/g, ''))) {
        throw new Error(`bad escape in HELP: ${line}`);
      }
      continue;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) throw new Error(`no sample in: ${line}`);
    const name = line.slice(0, nameEnd);
    if (!METRIC.test(name)) throw new Error(`bad metric name in: ${line}`);
    let rest = line.slice(nameEnd);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) ({ labels, after: rest } = parseLabels(rest, line));
    const parts = rest.split(' ');
    if (parts[0] !== '' || parts.length < 2 || parts.length > 3) throw new Error(`expected " value [timestamp]" in: ${line}`);
    const value = parseValue(parts[1]!, line);
    if (parts[2] !== undefined && !/^-?\d+$/.test(parts[2])) throw new Error(`bad timestamp in: ${line}`);
    if (!types.has(familyOf(name, types))) throw new Error(`sample before its TYPE: ${line}`);
    samples.push({ name, labels, value });
  }
  return { types, samples };
}

/** The samples named `name` whose labels include `labels`. */
export function select(e: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return e.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The one sample's value (0 when absent: a counter not yet incremented). */
export function valueOf(e: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = select(e, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples for ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

/** Histogram checks: cumulative buckets, an +Inf bucket equal to _count. */
export function checkHistogram(e: Exposition, name: string, labels: Record<string, string> = {}): { count: number; sum: number } {
  const buckets = select(e, `${name}_bucket`, labels).map((s) => ({
    le: s.labels['le'] === '+Inf' ? Infinity : Number(s.labels['le']),
    v: s.value,
  }));
  if (buckets.length === 0) throw new Error(`no buckets for ${name}`);
  for (let i = 1; i < buckets.length; i++) {
    if (!(buckets[i]!.le > buckets[i - 1]!.le)) throw new Error(`${name}: le not increasing`);
    if (buckets[i]!.v < buckets[i - 1]!.v) throw new Error(`${name}: buckets not cumulative`);
  }
  const count = valueOf(e, `${name}_count`, labels);
  if (buckets.at(-1)!.le !== Infinity || buckets.at(-1)!.v !== count) throw new Error(`${name}: the +Inf bucket is not _count`);
  return { count, sum: valueOf(e, `${name}_sum`, labels) };
}
