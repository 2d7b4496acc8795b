// What the audience sees in presenter mode on a projector, measured in the page: the world panel whole (no
// element cut by the panel or an overflow inside it), the HPA's bars and threshold lines, nothing out of the
// window, the controls and chapters on one line, no text under 12 px; in Portuguese, no English outside quoted
// tool output. One scenario is opened once (run to its end), then every size, language and frame is looked at
// in that page: the language through the lab's own picker and the frame through its scrubber, so a past frame
// is drawn from what it recorded.
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Page } from 'playwright-core';
import { groupScenarios } from '../../web/lab/scenarioGroups';
import type { ScenarioListing } from '../../web/lab/scenarios';
import { runnerFor } from '../../sim/loops';
import { VISIBLE_TEXTS, englishIn } from './english';
import { ROOT, settled } from './harness';

const SHOTS = join(ROOT, 'test-results/projector');
mkdirSync(SHOTS, { recursive: true });

export const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;
export const LANGUAGES = ['pt-BR', 'en'] as const;
const FRAMES = ['start', 'middle', 'last'] as const;

export interface ProjectorCase {
  id: string;
  loop: string;
  durationMs: number;
}

/** The scenarios a talk can open — the picker's talk group and every loop's demos; not the model checker's. */
export function projectorScenarios(): ProjectorCase[] {
  const listings: ScenarioListing[] = readdirSync(join(ROOT, 'scenarios'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => {
      const text = readFileSync(join(ROOT, 'scenarios', f), 'utf8');
      const doc = parse(text) as { loop?: unknown; description?: unknown } | null;
      // hpa.yaml is real mode's configuration, not a scenario: it names no loop.
      return typeof doc?.loop === 'string'
        ? [{ id: f.replace(/\.yaml$/, ''), file: `scenarios/${f}`, loop: doc.loop, description: '', text }]
        : [];
    });
  return groupScenarios(listings)
    .filter((g) => g.kind !== 'checks')
    .flatMap((g) => g.scenarios)
    .map((s) => ({ id: s.id, loop: s.loop, durationMs: runnerFor(join(ROOT, s.file)).scenario.durationMs }));
}

/** Everything that is wrong with the page as drawn, one line each. Runs in the page. */
export const PROBLEMS = `(() => {
  const problems = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  const doc = document.documentElement;
  if (doc.scrollWidth > vw) problems.push('page is ' + doc.scrollWidth + ' px wide (window ' + vw + ')');
  if (doc.scrollHeight > vh) problems.push('page is ' + doc.scrollHeight + ' px tall (window ' + vh + ')');
  const name = (e) => e.tagName.toLowerCase() + (e.dataset.testid ? '[' + e.dataset.testid + ']' : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  const shown = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e); return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
  // The lab's panels stay inside the window.
  for (const e of document.querySelectorAll('.lab > *, .lab-bar > *, .lab-main > *, .lab-side > *')) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) problems.push(name(e) + ' spills out of the window: ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(','));
  }
  // The presenter's controls on one line, the chapters on one row.
  for (const sel of ['.lab-bar > *', '.chapters > *']) {
    const tops = [...document.querySelectorAll(sel)].filter(shown).map((e) => { const r = e.getBoundingClientRect(); return (r.top + r.bottom) / 2; });
    if (tops.length && Math.max(...tops) - Math.min(...tops) > 8) problems.push(sel.split(' ')[0] + ' wraps onto more than one line');
  }
  const world = document.querySelector('[data-testid="world"]');
  if (!world) return { problems: [...problems, 'no world panel'], pods: 0 };
  const w = world.getBoundingClientRect();
  // The panel's visible box: inside its border, and inside the window.
  const cs = getComputedStyle(world);
  const box = { left: Math.max(0, w.left + parseFloat(cs.borderLeftWidth)), top: Math.max(0, w.top + parseFloat(cs.borderTopWidth)),
    right: Math.min(vw, w.right - parseFloat(cs.borderRightWidth)), bottom: Math.min(vh, w.bottom - parseFloat(cs.borderBottomWidth)) };
  const within = (r, b) => r.left >= b.left - 1 && r.top >= b.top - 1 && r.right <= b.right + 1 && r.bottom <= b.bottom + 1;
  const clippers = (e) => { const out = []; for (let p = e.parentElement; p && p !== world.parentElement; p = p.parentElement) {
    const s = getComputedStyle(p); if (s.overflowX !== 'visible' || s.overflowY !== 'visible') out.push(p); } return out; };
  let cut = 0;
  for (const e of [world, ...world.querySelectorAll('*')]) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (e !== world && !within(r, box)) { if (cut++ < 8) problems.push('world: ' + name(e) + ' "' + (e.textContent || '').slice(0, 30) + '" outside the panel: ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',') + ' vs ' + [box.left, box.top, box.right, box.bottom].map(Math.round).join(',')); continue; }
    for (const p of clippers(e)) {
      const q = p.getBoundingClientRect();
      if (!within(r, q)) { if (cut++ < 8) problems.push('world: ' + name(e) + ' clipped by ' + name(p)); break; }
    }
    // Content an overflow hides (a scrolled panel, a name cut to "pod…").
    const s = getComputedStyle(e);
    if ((s.overflowX !== 'visible' || s.overflowY !== 'visible') && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1))
      if (cut++ < 8) problems.push('world: ' + name(e) + ' hides ' + (e.scrollWidth - e.clientWidth) + '×' + (e.scrollHeight - e.clientHeight) + ' px of its content');
  }
  if (cut > 8) problems.push('world: ' + (cut - 8) + ' more cut elements');
  // The HPA: every pod's bar, with its threshold line inside it and its percentage or status under it.
  const pods = [...world.querySelectorAll('[data-testid="pod"]')];
  let badPods = 0;
  for (const pod of pods) {
    const bar = pod.querySelector('.bar'), line = pod.querySelector('.bar-threshold'), meta = pod.querySelector('.pod-meta');
    const b = bar && bar.getBoundingClientRect(), l = line && line.getBoundingClientRect(), m = meta && meta.getBoundingClientRect();
    const ok = b && b.height >= 8 && b.width >= 6 && l && l.width > 0 && l.top >= b.top - 1 && l.bottom <= b.bottom + 1 && m && m.height > 0;
    if (!ok && badPods++ < 3) problems.push('pod ' + pod.dataset.name + ': bar ' + (b ? Math.round(b.width) + '×' + Math.round(b.height) : 'missing') + ', threshold line ' + (l ? 'at ' + Math.round(l.top) : 'missing') + ', label ' + (m ? Math.round(m.height) + ' px tall' : 'missing'));
  }
  if (badPods > 3) problems.push((badPods - 3) + ' more pods without a readable bar');
  // Every visible text: its rendered size (font size times the scale transforms apply).
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const small = new Map();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim() || el.closest('option, select, script, style, title')) continue;
    const range = document.createRange(); range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh);
    if (rects.length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    let scale = 1;
    if (el instanceof SVGElement) { const m = el.getScreenCTM(); if (m) scale = Math.hypot(m.a, m.b); }
    else if (el.offsetHeight > 0) scale = el.getBoundingClientRect().height / el.offsetHeight;
    const px = parseFloat(getComputedStyle(el).fontSize) * scale;
    if (px < 12 - 0.01) { const key = name(el); if (!small.has(key)) small.set(key, px.toFixed(1) + ' px "' + n.textContent.trim().slice(0, 20) + '"'); }
  }
  for (const [key, what] of small) problems.push('text under 12 px: ' + key + ' ' + what);
  return { problems, pods: pods.length };
})()`;

/** The editor's buttons that are not wholly inside its scrolling panel and the window. Runs in the page. */
export const EDITOR_BUTTONS = `(() => {
  const panel = document.querySelector('.side-actions').getBoundingClientRect();
  return [...document.querySelectorAll('[data-testid="config-editor"] button')].filter((b) => {
    const r = b.getBoundingClientRect();
    return !(r.top >= panel.top - 1 && r.bottom <= Math.min(panel.bottom, window.innerHeight) + 1 && r.left >= panel.left - 1 && r.right <= panel.right + 1);
  }).map((b) => 'editor: button "' + b.textContent.trim() + '" is cut or out of view');
})()`;

/** Sets a control the way a user's input does (React reads the native value setter's change), hidden or not. */
const SET_CONTROL = `((sel, value, type) => {
  const el = document.querySelector(sel);
  const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, String(value));
  el.dispatchEvent(new Event(type, { bubbles: true }));
})`;
const setControl = (page: Page, sel: string, value: string | number, type: 'change' | 'input') =>
  page.evaluate(`${SET_CONTROL}(${JSON.stringify(sel)}, ${JSON.stringify(value)}, ${JSON.stringify(type)})`);

/** The frame the scrubber shows, and how many there are. */
const frameIndex = async (page: Page) => {
  const [n, of] = ((await page.getByTestId('frame-index').textContent()) ?? '0/0').split('/').map(Number);
  return { n: n ?? 0, of: of ?? 0 };
};

/**
 * Opens `scenario` in presenter mode at its end and looks at it at both sizes, in both languages, at its first,
 * middle and last frame. Returns every problem found, one line each, prefixed by where it was seen.
 */
export async function lookAtScenario(page: Page, base: string, scenario: ProjectorCase): Promise<string[]> {
  const found: string[] = [];
  await page.setViewportSize(VIEWPORTS[0]);
  await page.goto(`${base}?scenario=${scenario.id}&presenter=1&lang=${LANGUAGES[0]}&t=${scenario.durationMs}`);
  await page.getByTestId('world').waitFor();
  await page.locator('[data-testid="sc-node"]').first().waitFor();
  await page.waitForFunction(`document.querySelector('[data-testid="time"]')?.textContent !== '0:00'`);
  const { of: count } = await frameIndex(page);
  const at = { start: 0, middle: Math.floor((count - 1) / 2), last: count - 1 };
  for (const lang of LANGUAGES) {
    await setControl(page, '[data-testid="lang-select"]', lang, 'change');
    await page.waitForFunction(`document.querySelector('[data-testid="app"]').dataset.lang === ${JSON.stringify(lang)}`);
    for (const size of VIEWPORTS) {
      await page.setViewportSize(size);
      for (const when of FRAMES) {
        await setControl(page, '[data-testid="scrubber"]', at[when], 'input');
        await page.waitForFunction(`document.querySelector('[data-testid="frame-index"]').textContent === '${at[when] + 1}/${count}'`);
        await settled(page);
        const where = `${size.width}×${size.height} ${lang} ${when} (frame ${at[when] + 1}/${count})`;
        const seen = (await page.evaluate(PROBLEMS)) as { problems: string[]; pods: number }; // PROBLEMS' own shape
        found.push(...seen.problems.map((p) => `${where}: ${p}`));
        if (scenario.loop === 'incus-hpa' && when !== 'start' && seen.pods === 0) found.push(`${where}: no pod drawn`);
        if (lang === 'pt-BR') {
          const texts = (await page.evaluate(VISIBLE_TEXTS)) as string[]; // VISIBLE_TEXTS returns the texts it found
          for (const text of new Set(texts)) {
            const hit = englishIn(text);
            if (hit) found.push(`${where}: ${hit.why} || ${text.slice(0, 120)}`);
          }
        }
        await page.screenshot({ path: join(SHOTS, `${scenario.id}-${size.width}x${size.height}-${lang}-${when}.png`) });
      }
      // The editor's tab, opened: its buttons (Apply) are on screen, not scrolled out of its panel.
      const editorTab = page.getByTestId('tab-editor');
      if (await editorTab.count()) {
        await editorTab.click();
        await page.getByTestId('config-editor').waitFor();
        await settled(page);
        found.push(...((await page.evaluate(EDITOR_BUTTONS)) as string[]).map((p) => `${size.width}×${size.height} ${lang}: ${p}`)); // EDITOR_BUTTONS' own shape
        await page.screenshot({ path: join(SHOTS, `${scenario.id}-${size.width}x${size.height}-${lang}-editor.png`) });
        // Back to the first tab (the interventions) for the next size, as the page opened.
        await page.locator('[role="tab"]').first().click();
      }
    }
  }
  return found;
}
