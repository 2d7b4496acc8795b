import type { Command } from 'commander';

/**
 * Every subcommand: its name, one line for `loopscope --help`, and the module that registers it in
 * full. Only the module of the command being run is loaded — `--help`, `--version` and each command
 * start without loading the others' dependencies (XState, the explorer, the Incus client, ELK).
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<(program: Command) => void>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'sim',
    summary: 'simulate a scenario and print its timeline (or write its trace)',
    load: async () => (await import('./sim-command')).registerSim,
  },
  {
    name: 'check',
    summary: "explore every behaviour of a scenario's environment and check its properties",
    load: async () => (await import('./check-command')).registerCheck,
  },
  {
    name: 'swarm',
    summary: 'many short randomized searches of a check scenario, sharded across processes or a Kubernetes Indexed Job',
    load: async () => (await import('./swarm-command')).registerSwarm,
  },
  {
    name: 'real',
    summary: 'run the Incus HPA against a real Incus daemon',
    load: async () => (await import('./real-command')).registerReal,
  },
  {
    name: 'conform',
    summary: 'replay a real run against the model: same states, same decisions',
    load: async () => (await import('./conform-command')).registerConform,
  },
  {
    name: 'init',
    summary: 'scaffold a starting point: `init controller <dir>`',
    load: async () => (await import('./init-command')).registerInit,
  },
  {
    name: 'export',
    summary: 'write slides of a scenario: one self-contained HTML page, SVG and PNG pictures',
    load: async () => (await import('./export-command')).registerExport,
  },
  {
    name: 'paths',
    summary: "model-based tests from a loop's machine (xstate/graph paths) and its transition coverage",
    load: async () => (await import('./paths-command')).registerPaths,
  },
  {
    name: 'trace',
    summary: "convert a trace file to ITF (Apalache's Informal Trace Format) or back",
    load: async () => (await import('./trace-command')).registerTrace,
  },
  {
    name: 'lab',
    summary: 'serve the lab on 127.0.0.1 and open your own scenarios and traces in it',
    load: async () => (await import('./lab-command')).registerLab,
  },
];
