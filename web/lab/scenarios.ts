import { createRunner, parseScenarioText } from '../../sim/loops/registry';
import { PAGE_FILES } from './page-files';
import { scenarioHeader as header } from './scenario-header';

/** Every scenario shipped in scenarios/, bundled as text (same files the CLI reads). */
const TEXTS = import.meta.glob('../../scenarios/*.yaml', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export interface ScenarioListing {
  /** File name without extension, e.g. "talk-lab", or a page's scenario's name (the URL uses it). */
  id: string;
  file: string;
  loop: string;
  description: string;
  text: string;
}

/** A page written by `npm run export` may carry a scenario the lab does not ship (its name and text). */
function exportedScenario(): { id: string; file: string; text: string } | null {
  const raw = typeof document === 'undefined' ? null : document.getElementById('loopscope-export-scenario')?.textContent;
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as { id?: unknown; text?: unknown }; // cast: both fields checked with typeof; a non-object throws into catch
    return typeof v.id === 'string' && typeof v.text === 'string' ? { id: v.id, file: `${v.id}.yaml`, text: v.text } : null;
  } catch {
    return null;
  }
}

/** The scenarios a page carries: the export's, and the files `loopscope lab <file…>` hands over (named as the
 * user named them, so the lab's messages name the same file). */
function pageScenarios(): { id: string; file: string; text: string }[] {
  const exported = exportedScenario();
  const given = PAGE_FILES.filter((f) => f.kind === 'scenario').map((f) => ({
    id:
      f.id ??
      f.name
        .split('/')
        .pop()!
        .replace(/\.ya?ml$/, ''),
    file: f.name,
    text: f.text,
  }));
  return [...(exported ? [exported] : []), ...given];
}

const shipped = Object.entries(TEXTS).map(([path, text]) => {
  const file = path.split('/').pop()!;
  return { id: file.replace(/\.ya?ml$/, ''), file: `scenarios/${file}`, text, ...header(text) };
});
// The first of one name counts (the CLI refuses two files of one name; a hand-made page may not).
const carried = pageScenarios()
  .filter((s, i, all) => all.findIndex((o) => o.id === s.id) === i)
  .map((s) => ({ ...s, ...header(s.text) }));

/** The shipped scenarios and the page's own; a page's scenario of a shipped one's name stands in its place. */
export const SCENARIOS: ScenarioListing[] = [...shipped.filter((s) => !carried.some((c) => c.id === s.id)), ...carried].sort((a, b) =>
  a.id.localeCompare(b.id),
);

export const scenariosOf = (loop: string) => SCENARIOS.filter((s) => s.loop === loop);

export interface OpenOptions {
  seed?: number;
  policy?: string;
}

/** Parses a listed scenario and builds its runner (with checkpoints, so the lab can rewind). */
export function openScenario(listing: ScenarioListing, options: OpenOptions = {}) {
  const { entry, scenario } = parseScenarioText(listing.file, listing.id, listing.text, options.seed);
  const runner = createRunner(entry, scenario, { checkpoints: true, ...(options.policy ? { policy: options.policy } : {}) });
  return { entry, scenario, runner };
}
