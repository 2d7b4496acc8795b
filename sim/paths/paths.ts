import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILED } from '../compiled';
import type { LoopEntry, LoadedScenario } from '../loops/registry';
import { loadScenario, parseScenarioText } from '../loops';
import { getStateNodes } from 'xstate/graph';
import { readYamlFile } from '../scenario/load';
import type { CoverKind, GeneratedPath, WorldSearch } from './generate';
import { choosePaths, searchWorld } from './generate';
import type { MachineTransition } from './machine-transitions';
import { pathScenarioYaml, pathTimeline } from './path-scenario';
import { runCoverage } from './run-coverage';

/** A share of the machine's transitions: how many of how many. */
export interface Share {
  taken: number;
  of: number;
  percent: number;
}
const share = (taken: number, of: number): Share => ({ taken, of, percent: of === 0 ? 100 : Math.round((1000 * taken) / of) / 10 });

/** One generated path as written: its scenario and test files, its moves, what it is for. */
export interface WrittenPath {
  name: string;
  scenario: string;
  test: string;
  moves: number;
  endMs: number;
  targets: string[];
}

/** The coverage report of one loop (coverage.json). */
export interface PathsReport {
  loop: string;
  scenario: string;
  cover: CoverKind;
  worldStates: number;
  /**
   * reachable: by the explorer's semantics (a move at any point); placeable: by a scenario's
   * timeline (world-logic.ts: no move between two events due at one instant).
   */
  transitions: { total: number; reachable: number; placeable: number };
  /** Shares of all the machine's transitions; `generatedOfPlaceable` of those a scenario can reach in the world. */
  coverage: { shipped?: Share; check?: Share; generated: Share; generatedOfPlaceable: Share };
  states?: { total: number; reachable: number; generated: number };
  paths: WrittenPath[];
  /** Every transition the generated paths do not take, and why. */
  notTaken: { transition: string; reason: string }[];
  /** Transitions the generated paths take, per file. */
  taken: Record<string, string[]>;
}

export interface PathsOptions {
  cover: CoverKind;
  out: string;
  /** The loop's shipped scenarios, sim ones and check ones, for their shares (absent: not measured). */
  shipped?: { sim: string[]; check: string[] };
}

/** The helper the written tests import: the package's testing entry, or from source this file's sibling by absolute path. */
const HELPER = COMPILED ? 'loopscope/testing' : fileURLToPath(new URL('./testing.ts', import.meta.url));

const UNREACHABLE = (scenario: string) => `not reachable in this world: the exhaustive exploration of ${scenario} never takes it`;
const BETWEEN =
  'reachable only by a move between two events due at one instant, which a scenario timeline cannot place (sim plays timeline entries first)';

/**
 * `loopscope paths`: xstate/graph's shortest paths over the loop's machine with its world
 * (generate.ts), one scenario and one vitest file per path, and the coverage report — each share
 * measured by running scenarios, never assumed: the generated ones as written are parsed and run
 * through the Runner like `loopscope sim` runs them.
 */
export function generatePaths(entry: LoopEntry, scenario: LoadedScenario, options: PathsOptions): PathsReport {
  const search = searchWorld(entry, scenario);
  // The explorer's own semantics (a move at any point): what is reachable in the world at all.
  const world = searchWorld(entry, scenario, { timeline: false });
  const all = [...search.logic.recorder.transitions.values()];
  const paths = choosePaths(search, options.cover);
  mkdirSync(options.out, { recursive: true });
  const doc = { file: scenario.file, doc: readYamlFile(scenario.file) };
  const written: WrittenPath[] = [];
  const generatedTaken = new Set<string>();
  const generatedStates = new Set<string>();
  const taken: Record<string, string[]> = {};
  paths.forEach((path, i) => {
    const name = `${scenario.name}-path-${String(i + 1).padStart(2, '0')}`;
    const timeline = pathTimeline(search.logic, path);
    const yaml = pathScenarioYaml(doc, name, describe(path, options.cover), timeline);
    const file = resolve(join(options.out, `${name}.yaml`));
    writeFileSync(file, yaml);
    const testFile = resolve(join(options.out, `${name}.test.ts`));
    writeFileSync(testFile, testSource(name, scenario.name, options.cover, path.targets));
    const run = runCoverage(entry, parseScenarioText(file, name, yaml).scenario, search.logic.recorder);
    for (const id of run.transitions) generatedTaken.add(id);
    for (const s of run.states) generatedStates.add(s);
    taken[`${name}.yaml`] = [...run.transitions];
    written.push({ name, scenario: file, test: testFile, moves: timeline.moves.length, endMs: timeline.endMs, targets: path.targets });
  });
  const notTaken = all
    .filter((t) => !generatedTaken.has(t.id))
    .map((t) => ({ transition: t.id, reason: reason(t, search, world, scenario.name) }));
  const report: PathsReport = {
    loop: entry.id,
    scenario: scenario.name,
    cover: options.cover,
    worldStates: search.states,
    transitions: { total: all.length, reachable: world.reachableTransitions.size, placeable: search.reachableTransitions.size },
    coverage: {
      ...(options.shipped ? shippedShares(entry, all, options.shipped) : {}),
      generated: share(generatedTaken.size, all.length),
      generatedOfPlaceable: share(
        [...search.reachableTransitions].filter((id) => generatedTaken.has(id)).length,
        search.reachableTransitions.size,
      ),
    },
    ...(options.cover === 'states'
      ? { states: { total: countLeafStates(entry), reachable: world.reachableStates.size, generated: generatedStates.size } }
      : {}),
    paths: written,
    notTaken,
    taken,
  };
  writeFileSync(join(options.out, 'coverage.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(join(options.out, 'coverage.txt'), reportText(report));
  return report;
}

function reason(t: MachineTransition, search: WorldSearch, world: WorldSearch, scenario: string): string {
  if (!world.reachableTransitions.has(t.id)) return UNREACHABLE(scenario);
  if (!search.reachableTransitions.has(t.id)) return BETWEEN;
  return 'reachable, generated, but not taken when its scenario was run (a bug: please report it)';
}

/** The shares of the loop's shipped sim scenarios (run) and check scenarios (explored). */
function shippedShares(entry: LoopEntry, all: MachineTransition[], files: { sim: string[]; check: string[] }) {
  const sim = new Set<string>();
  for (const file of files.sim) {
    const { scenario } = loadScenario(file);
    for (const id of runCoverage(entry, scenario).transitions) sim.add(id);
  }
  const check = new Set<string>();
  for (const file of files.check) {
    const { scenario } = loadScenario(file);
    for (const id of searchWorld(entry, scenario, { timeline: false }).reachableTransitions) check.add(id);
  }
  return { shipped: share(sim.size, all.length), check: share(check.size, all.length) };
}

const countLeafStates = (entry: LoopEntry) =>
  getStateNodes(entry.binding.machine.root).filter((n) => n.type === 'atomic' || n.type === 'final').length;

function describe(path: GeneratedPath, cover: CoverKind): string {
  const what = cover === 'transitions' ? 'transition' : 'state';
  return `Generated by loopscope paths: ${path.events.length} steps reaching ${path.targets.length} ${what}${path.targets.length === 1 ? '' : 's'} (${path.targets.join('; ')}).`;
}

const literal = (value: unknown) => JSON.stringify(value);

function testSource(name: string, scenario: string, cover: CoverKind, targets: readonly string[]): string {
  const field = cover === 'transitions' ? 'transitions' : 'states';
  return `// Generated by \`loopscope paths ${scenario} --cover ${cover}\`: runs ${name}.yaml as \`loopscope sim\` does
// and checks the machine ${cover === 'transitions' ? 'takes every transition' : 'reaches every state'} this path was generated for.
import { expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { pathCoverage } from ${literal(HELPER)};

const SCENARIO = fileURLToPath(new URL(${literal(`./${encodeURIComponent(name)}.yaml`)}, import.meta.url));
const TARGETS: readonly string[] = ${literal(targets)};

it(${literal(`${name} ${cover === 'transitions' ? 'takes its transitions' : 'reaches its states'}`)}, () => {
  const run = pathCoverage(SCENARIO);
  const missed = TARGETS.filter((target) => !run.${field}.includes(target));
  expect(missed, \`the run:\\n\${run.timeline}\`).toEqual([]);
});
`;
}

export function reportText(r: PathsReport): string {
  const pct = (s: Share | undefined) => (s ? `${s.percent}% (${s.taken}/${s.of})` : 'not measured');
  const lines = [
    `${r.loop} · ${r.scenario}: ${r.worldStates} world states, ${r.transitions.total} machine transitions, ${r.transitions.reachable} reachable in this world, ${r.transitions.placeable} of them by a scenario's timeline`,
    `transitions taken — shipped scenarios: ${pct(r.coverage.shipped)}; check scenarios: ${pct(r.coverage.check)}; generated paths: ${pct(r.coverage.generated)}`,
    `generated paths take ${pct(r.coverage.generatedOfPlaceable)} of the transitions a scenario can reach in this world`,
    ...(r.states
      ? [
          `machine states: ${r.states.total} leaf states, ${r.states.reachable} reachable, ${r.states.generated} reached by the generated paths`,
        ]
      : []),
    `${r.paths.length} ${r.paths.length === 1 ? 'path' : 'paths'} (${r.cover}):`,
    ...r.paths.map(
      (p) => `  ${p.name}: ${p.moves} moves, ends at ${p.endMs / 1000}s — ${p.targets.length} target${p.targets.length === 1 ? '' : 's'}`,
    ),
    ...(r.notTaken.length ? ['not taken:', ...r.notTaken.map((n) => `  ${n.transition}: ${n.reason}`)] : []),
  ];
  return lines.join('\n') + '\n';
}
