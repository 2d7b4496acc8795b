import { parse } from 'yaml';
import { createRunner, parseScenarioText } from '../../sim/loops/registry';

/** Every scenario shipped in scenarios/, bundled as text (same files the CLI reads). */
const TEXTS = import.meta.glob('../../scenarios/*.yaml', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export interface ScenarioListing {
  /** File name without extension, e.g. "talk-lab" (the URL uses it). */
  id: string;
  file: string;
  loop: string;
  description: string;
  text: string;
}

/** Reads only the header keys (loop, description), so a broken scenario still lists. */
function header(text: string): { loop: string; description: string } {
  try {
    const doc = parse(text) as { loop?: unknown; description?: unknown } | null;
    return { loop: typeof doc?.loop === 'string' ? doc.loop : '?', description: typeof doc?.description === 'string' ? doc.description : '' };
  } catch {
    return { loop: '?', description: '' };
  }
}

/** A page written by `npm run export` may carry a scenario the lab does not ship (its name and text). */
function exportedScenario(): { id: string; text: string } | null {
  const raw = typeof document === 'undefined' ? null : document.getElementById('loopscope-export-scenario')?.textContent;
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as { id?: unknown; text?: unknown };
    return typeof v.id === 'string' && typeof v.text === 'string' ? { id: v.id, text: v.text } : null;
  } catch {
    return null;
  }
}

const shipped = Object.entries(TEXTS).map(([path, text]) => {
  const file = path.split('/').pop()!;
  return { id: file.replace(/\.ya?ml$/, ''), file: `scenarios/${file}`, text, ...header(text) };
});
const exported = exportedScenario();

export const SCENARIOS: ScenarioListing[] = [
  ...shipped.filter((s) => s.id !== exported?.id),
  ...(exported ? [{ id: exported.id, file: `${exported.id}.yaml`, text: exported.text, ...header(exported.text) }] : []),
].sort((a, b) => a.id.localeCompare(b.id));

export const scenariosOf = (loop: string) => SCENARIOS.filter((s) => s.loop === loop);

export interface OpenOptions { seed?: number; policy?: string }

/** Parses a listed scenario and builds its runner (with checkpoints, so the lab can rewind). */
export function openScenario(listing: ScenarioListing, options: OpenOptions = {}) {
  const { entry, scenario } = parseScenarioText(listing.file, listing.id, listing.text, options.seed);
  const runner = createRunner(entry, scenario, { checkpoints: true, ...(options.policy ? { policy: options.policy } : {}) });
  return { entry, scenario, runner };
}

export type OpenedScenario = ReturnType<typeof openScenario>;
