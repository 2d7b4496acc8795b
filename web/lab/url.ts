import { parseDuration } from '../../sim/units';
import type { Language } from '../i18n/messages';
import { LANGUAGES } from '../i18n/messages';
import { isOneOf } from '../../sim/one-of';

/** Everything a slide can link to: loop, scenario, seed, policy, time (ms), moment, presenter, language, a page's trace. */
export interface LabUrl {
  loop?: string;
  scenario?: string;
  seed?: number;
  policy?: string;
  t?: number;
  /** A chapter's name (`moment=first-act`): the scenario's moments resolve it. */
  moment?: string;
  presenter: boolean;
  lang: Language;
  /** Side by side: the policies of the columns (`compare=seed,kubernetes`; `scenario` = the scenario's own). */
  compare?: string[];
  /** The talk's tour: the stop shown (1 = cron … 6 = the Incus HPA lab; web/tour/stops.ts). */
  tour?: number;
  /** One of the traces the page carries (`loopscope lab run.json`; web/lab/page-files.ts), counted from 0. */
  trace?: number;
  /** The inspector page (`loopscope lab --inspect`; web/inspect/): `inspect=1`. */
  inspect?: boolean;
}

/** A link's time: ms ("90000"), a duration ("1m30s", "90s", "1.5s") or the lab's clock ("1:30", "1:02:03"). */
function parseLinkTime(v: string): number | null {
  const clockForm = /^(?:(\d+):)?(\d+):([0-5]\d)$/.exec(v);
  if (clockForm) return ((Number(clockForm[1] ?? 0) * 60 + Number(clockForm[2])) * 60 + Number(clockForm[3])) * 1000;
  // A bare number must be whole ms: "90000.5" is refused, not rounded.
  if (/^\d+(\.\d*)?$/.test(v) && !/^\d+$/.test(v)) return null;
  return parseDuration(v);
}

/** The URL's parameters, and a sentence for each one that is not usable (the lab shows them; never a silent 0). */
export function parseUrl(search: string): { url: LabUrl; problems: string[] } {
  const p = new URLSearchParams(search);
  const problems: string[] = [];
  const langText = p.get('lang');
  const lang = langText !== null && isOneOf(LANGUAGES, langText) ? langText : undefined;
  if (langText !== null && lang === undefined) problems.push(`lang=${langText}: expected one of ${LANGUAGES.join(', ')}`);
  const presenter = p.get('presenter');
  if (presenter !== null && presenter !== '1' && presenter !== '0') problems.push(`presenter=${presenter}: expected 1 (on) or 0 (off)`);
  const url: LabUrl = { presenter: presenter === '1', lang: lang ?? 'en' };
  const loop = p.get('loop');
  if (loop) url.loop = loop;
  const scenario = p.get('scenario');
  if (scenario) url.scenario = scenario;
  const policy = p.get('policy');
  if (policy) url.policy = policy;
  const moment = p.get('moment');
  if (moment) url.moment = moment;
  const compare = p.get('compare');
  if (compare) url.compare = compare.split(',');
  const seed = p.get('seed');
  if (seed !== null) {
    if (/^\d+$/.test(seed) && Number.isSafeInteger(Number(seed))) url.seed = Number(seed);
    else problems.push(`seed=${seed}: expected a whole number ≥ 0 (e.g. seed=4)`);
  }
  const tour = p.get('tour');
  if (tour !== null) {
    if (/^\d{1,3}$/.test(tour)) url.tour = Number(tour);
    else problems.push(`tour=${tour}: expected a stop number (1, 2, …)`);
  }
  const trace = p.get('trace');
  if (trace !== null) {
    if (/^\d{1,4}$/.test(trace)) url.trace = Number(trace);
    else problems.push(`trace=${trace}: expected the number of one of the page's trace files (0 for the first)`);
  }
  if (p.get('inspect') === '1') url.inspect = true;
  const t = p.get('t');
  if (t !== null) {
    const ms = parseLinkTime(t);
    if (ms !== null) url.t = ms;
    else problems.push(`t=${t}: expected a time as whole ms (90000), a duration (1m30s, 90s) or m:ss (1:30)`);
  }
  return { url, problems };
}

export const readUrl = (search: string): LabUrl => parseUrl(search).url;

export function urlSearch(u: LabUrl): string {
  const p = new URLSearchParams();
  if (u.loop) p.set('loop', u.loop);
  if (u.scenario) p.set('scenario', u.scenario);
  if (u.seed !== undefined) p.set('seed', String(u.seed));
  if (u.policy) p.set('policy', u.policy);
  if (u.t !== undefined) p.set('t', String(Math.round(u.t)));
  if (u.moment) p.set('moment', u.moment);
  if (u.compare?.length) p.set('compare', u.compare.join(','));
  if (u.tour !== undefined) p.set('tour', String(u.tour));
  if (u.trace !== undefined) p.set('trace', String(u.trace));
  if (u.inspect) p.set('inspect', '1');
  if (u.presenter) p.set('presenter', '1');
  if (u.lang !== 'en') p.set('lang', u.lang);
  const s = p.toString();
  return s ? `?${s}` : location.pathname;
}

/** The state an exported lab opens with (`npm run export` writes it into the page), when its link has none. */
function exportedState(): string | null {
  return typeof document === 'undefined' ? null : (document.getElementById('loopscope-export-state')?.textContent ?? null);
}

/** Where the lab keeps its state: the query string when served; the hash in an exported file (opened from
 * file://, which has no server to ask and where a query would name another file). */
const stateInHash = (): boolean => typeof location !== 'undefined' && (location.protocol === 'file:' || exportedState() !== null);

/** The lab's parameters as a query string ("?loop=…"): the URL's query, or its hash (or the export's own state) in an exported file. */
export function locationParams(): string {
  if (typeof location === 'undefined') return '';
  if (!stateInHash()) return location.search;
  const hash = location.hash.replace(/^#/, '');
  return `?${hash || exportedState() || location.search.replace(/^\?/, '')}`;
}

/** Rewrites the address bar without a navigation (the lab is one page). */
export function replaceUrl(u: LabUrl): void {
  const next = urlSearch(u);
  if (stateInHash()) {
    const hash = next.startsWith('?') ? `#${next.slice(1)}` : '';
    if (hash !== location.hash) history.replaceState(null, '', hash || location.pathname);
    return;
  }
  if (next !== location.search && !(next === location.pathname && location.search === '')) history.replaceState(null, '', next);
}
