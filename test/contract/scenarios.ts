import { readdirSync, readFileSync } from 'node:fs';

/** Every shipped simulation scenario (scenarios/*.yaml naming a loop; hpa.yaml there is real mode's config). */
export const SHIPPED_SCENARIOS: readonly string[] = readdirSync('scenarios')
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => `scenarios/${f}`)
  .filter((file) => /^loop:/m.test(readFileSync(file, 'utf8')));
