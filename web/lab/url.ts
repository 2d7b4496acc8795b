import type { Language } from '../i18n/messages';
import { LANGUAGES } from '../i18n/messages';

/** Everything a slide can link to: loop, scenario, seed, policy, time (ms), presenter, language. */
export interface LabUrl {
  loop?: string;
  scenario?: string;
  seed?: number;
  policy?: string;
  t?: number;
  presenter: boolean;
  lang: Language;
}

const wholeNumber = (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);

export function readUrl(search: string): LabUrl {
  const p = new URLSearchParams(search);
  const lang = p.get('lang');
  const out: LabUrl = { presenter: p.get('presenter') === '1', lang: (LANGUAGES as readonly string[]).includes(lang ?? '') ? (lang as Language) : 'en' };
  const loop = p.get('loop'); if (loop) out.loop = loop;
  const scenario = p.get('scenario'); if (scenario) out.scenario = scenario;
  const policy = p.get('policy'); if (policy) out.policy = policy;
  const seed = wholeNumber(p.get('seed')); if (seed !== undefined) out.seed = seed;
  const t = wholeNumber(p.get('t')); if (t !== undefined) out.t = t;
  return out;
}

export function urlSearch(u: LabUrl): string {
  const p = new URLSearchParams();
  if (u.loop) p.set('loop', u.loop);
  if (u.scenario) p.set('scenario', u.scenario);
  if (u.seed !== undefined) p.set('seed', String(u.seed));
  if (u.policy) p.set('policy', u.policy);
  if (u.t !== undefined) p.set('t', String(Math.round(u.t)));
  if (u.presenter) p.set('presenter', '1');
  if (u.lang !== 'en') p.set('lang', u.lang);
  const s = p.toString();
  return s ? `?${s}` : location.pathname;
}

/** Rewrites the address bar without a navigation (the lab is one page). */
export function replaceUrl(u: LabUrl): void {
  const next = urlSearch(u);
  if (next !== location.search && !(next === location.pathname && location.search === '')) history.replaceState(null, '', next);
}
