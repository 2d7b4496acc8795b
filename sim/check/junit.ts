import { formatTimeline } from '../format';
import type { Frame } from '../trace';
import type { CheckRun } from './check';
import type { Artifacts, Counterexample } from './artifacts';
import { movesAndChoices } from './model';
import { outcomeOf } from './outcome';
import { lassoOf } from './lasso-trace';

// XML 1.0 allows tab, newline, carriage return and these ranges; anything else (other control
// characters, lone surrogates) cannot appear even escaped, so it is replaced.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export const xmlText = (s: string) => s.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Attribute values: also quotes, and whitespace as character references (parsers would normalise it). */
export const xmlAttr = (s: string) =>
  xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');

const attrs = (pairs: Record<string, string | number>) =>
  Object.entries(pairs)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');

const suiteName = (run: CheckRun) => `${run.scenario.name}${run.policy ? ` · policy ${run.policy}` : ''}`;

function testcase(run: CheckRun, index: number, columns: (f: Frame) => string, files: (ce: Counterexample) => Artifacts): string {
  const v = run.result.verdicts[index]!;
  const name = v.property.name;
  const head = `  <testcase${attrs({ name, classname: `loopscope.check.${run.scenario.name}${run.policy ? `.${run.policy}` : ''}`, time: 0 })}`;
  const ce = run.counterexamples.find((c) => c.property === name);
  const evidence = () => {
    if (!ce) return '';
    const { trace, test } = files(ce);
    const lasso = lassoOf(run, ce);
    const where = [
      trace && `trace: ${trace}`,
      test && `test: ${test}`,
      lasso &&
        `lasso: prefix ${lasso.prefix} steps, then a cycle of ${lasso.cycle} steps repeated for ever (the trace's frames from ${(ce.trace.lasso?.cycleStart ?? 0) + 1} on)`,
    ]
      .filter(Boolean)
      .join('\n');
    return `\n\n${where ? `${where}\n` : ''}${formatTimeline(ce.trace, columns)}`;
  };
  switch (outcomeOf(run, v)) {
    case 'holds':
      return `${head}/>`;
    case 'unknown':
      return `${head}>\n    <skipped${attrs({ message: v.detail })}/>\n  </testcase>`;
    case 'violated':
      return `${head}>\n    <failure${attrs({ message: `${name}: ${v.detail}`, type: v.property.kind })}>${xmlText(`${v.property.claim}${evidence()}`)}</failure>\n  </testcase>`;
    case 'finding':
      return `${head}>\n    <system-out>${xmlText(`finding (not promised${run.policy ? ` by policy ${run.policy}` : ''}): ${v.detail}\n${v.property.claim}${evidence()}`)}</system-out>\n  </testcase>`;
  }
}

function testsuite(run: CheckRun, columns: (f: Frame) => string, files: (ce: Counterexample) => Artifacts, timestamp: string): string {
  const outcomes = run.result.verdicts.map((v) => outcomeOf(run, v));
  const s = run.result.stats;
  const { moves, choices } = movesAndChoices(run.alphabet);
  const properties: Record<string, string | number> = {
    scenario: run.scenario.name,
    file: run.scenario.file,
    loop: run.loop,
    ...(run.policy ? { policy: run.policy } : {}),
    environment: moves.map((m) => m.label).join('; '),
    ...(choices.length ? { choices: choices.map((m) => m.label).join('; ') } : {}),
    'states.generated': s.generated,
    'states.distinct': s.distinct,
    depth: s.depth,
    complete: String(s.complete),
  };
  return [
    ` <testsuite${attrs({
      name: suiteName(run),
      tests: outcomes.length,
      failures: outcomes.filter((o) => o === 'violated').length,
      errors: 0,
      skipped: outcomes.filter((o) => o === 'unknown').length,
      time: (s.timeMs / 1000).toFixed(3),
      timestamp,
      package: 'loopscope.check',
    })}>`,
    '  <properties>',
    ...Object.entries(properties).map(([name, value]) => `   <property${attrs({ name, value })}/>`),
    '  </properties>',
    ...run.result.verdicts.map((_, i) => testcase(run, i, columns, files)),
    ' </testsuite>',
  ].join('\n');
}

/**
 * `--format junit`: one testsuite per checked configuration, one testcase per property —
 * holds: passes; violated and promised: <failure> with the counterexample's timeline; violated
 * but not promised: passes, the finding in <system-out>; unknown (a bound was hit): <skipped>.
 */
export function junitReport(
  runs: readonly CheckRun[],
  columns: (f: Frame) => string,
  files: (ce: Counterexample) => Artifacts,
  now = new Date(),
): string {
  const timestamp = now.toISOString().replace(/\.\d+Z$/, '');
  const all = runs.flatMap((run) => run.result.verdicts.map((v) => outcomeOf(run, v)));
  const time = runs.reduce((sum, r) => sum + r.result.stats.timeMs, 0) / 1000;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'loopscope check', tests: all.length, failures: all.filter((o) => o === 'violated').length, errors: 0, time: time.toFixed(3) })}>`,
    ...runs.map((run) => testsuite(run, columns, files, timestamp)),
    '</testsuites>',
    '',
  ].join('\n');
}
