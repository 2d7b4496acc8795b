import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

/** The explorer bench's large HPA configuration (max 4 pods; bench/explorer-scenarios.ts's LARGE_MOVES) as a scenario file. */
export const LARGE_MOVES = [
  'demand: 2500MB',
  'kill: pod-a',
  'failApi: 1',
  'restartController: true',
  'demand: 100MB',
  'failApi: 1',
  'slowApi: { factor: 10, for: 30s }',
  'demand: 1500MB',
  'restartController: true',
  'deleteInstance: pod-a',
  'failApi: 1',
];

/** Writes it into a fresh temporary directory; `moves` are its timeline (each at 0s, so at any instant). */
export function largeScenario(name = 'hpa-bench-large', moves: readonly string[] = LARGE_MOVES): string {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-')), `${name}.yaml`);
  writeFileSync(
    file,
    stringify({
      loop: 'incus-hpa',
      name,
      seed: 1,
      duration: '10m',
      config: {
        HPA: { minPods: 1, maxPods: 4, memoryThreshold: 50 },
        policy: 'fixed',
        limitsMemory: '1000MB',
        backoff: { initial: '5s', max: '15s' },
        downscaleStabilization: '30s',
      },
      world: { baseline: '50MB', demand: '300MB', instances: [{ name: 'pod-a' }, { name: 'podman-cache', owned: false, serves: false }] },
    }) + `timeline:\n${moves.map((m) => `  - { at: 0s, ${m} }`).join('\n')}\n`,
  );
  return file;
}
