// Presenter mode on a projector: at 1280×720 and 1920×1080 every loop's world panel shows its whole
// picture (nothing cut by the panel or by an overflow inside it), the HPA draws each pod's bar and
// threshold line, nothing spills out of the window, the controls and the chapters keep to one line, and no
// text is smaller than 12 px.
//
// The list is capped on purpose: each case opens the lab once (at a later frame, then Reset for the start)
// at two sizes, and on a loaded 2-core machine a page costs seconds. One scenario per loop — the one the talk's tour
// opens, which is what a projector shows — plus bench-200-pods for the HPA (200+ pods: the boxes must
// shrink or wrap, never be cut) keeps the file under about three minutes.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LOOP_IDS } from '../../sim/loops/registry';
import { runnerFor } from '../../sim/loops';
import { TOUR } from '../../web/tour/stops';
import { ROOT, useLabPage, withChromium } from './harness';

const SHOTS = join(ROOT, 'test-results/projector');
mkdirSync(SHOTS, { recursive: true });

interface Case { loop: string; scenario: string; later: number }

/** The tour's scenario of every loop, at 60% of its run; bench-200-pods at 10 minutes (its whole 6 h
 * would take the browser tens of seconds to simulate, and 10 minutes already has every pod running). */
function cases(): Case[] {
  const at60 = (scenario: string) => Math.round(runnerFor(join(ROOT, 'scenarios', `${scenario}.yaml`)).scenario.durationMs * 0.6);
  const tour = LOOP_IDS.map((loop) => {
    const stop = TOUR.find((s) => s.loop === loop);
    if (!stop) throw new Error(`the tour has no stop for ${loop}`);
    return { loop, scenario: stop.scenario, later: at60(stop.scenario) };
  });
  return [...tour, { loop: 'incus-hpa', scenario: 'bench-200-pods', later: 10 * 60_000 }];
}

const VIEWPORTS = [
  // Portuguese at the small size: its words are the longer ones.
  { width: 1280, height: 720, lang: 'pt-BR' },
  { width: 1920, height: 1080, lang: 'en' },
] as const;

/** Everything that is wrong with the page as drawn, one line each. Runs in the page. */
const PROBLEMS = `(() => {
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
const EDITOR_BUTTONS = `(() => {
  const panel = document.querySelector('.side-actions').getBoundingClientRect();
  return [...document.querySelectorAll('[data-testid="config-editor"] button')].filter((b) => {
    const r = b.getBoundingClientRect();
    return !(r.top >= panel.top - 1 && r.bottom <= Math.min(panel.bottom, window.innerHeight) + 1 && r.left >= panel.left - 1 && r.right <= panel.right + 1);
  }).map((b) => 'editor: button "' + b.textContent.trim() + '" is cut or out of view');
})()`;

withChromium.describe('presenter mode on a projector (chromium)', () => {
  const lab = useLabPage();
  // The first page of a cold dev server transforms the whole lab: opened once before the timed cases.
  it('opens the lab once (warms the dev server)', async () => {
    lab.page.setDefaultTimeout(60_000);
    await lab.page.goto(`${lab.base}?scenario=talk-lab&presenter=1`, { timeout: 170_000 });
    await lab.page.getByTestId('lab').waitFor({ timeout: 170_000 });
  }, 180_000);

  for (const { width, height, lang } of VIEWPORTS) {
    for (const { loop, scenario, later } of cases()) {
      it(`${loop} ${scenario} at ${width}×${height} (${lang}): the world shows whole, at the start and at t=${later}`, async () => {
        await lab.page.setViewportSize({ width, height });
        const found: string[] = [];
        const frameIs = (test: string) => lab.page.waitForFunction(`(() => { const n = Number(document.querySelector('[data-testid="frame-index"]').textContent.split('/')[0]); return ${test}; })()`);
        await lab.page.goto(`${lab.base}?scenario=${scenario}&presenter=1&lang=${lang}&t=${later}`);
        for (const when of ['later', 'start'] as const) {
          // The start: Reset runs the scenario afresh from its first frame (one page load per case).
          if (when === 'start') await lab.page.getByTestId('btn-reset').click();
          await lab.page.getByTestId('world').waitFor();
          await lab.page.locator('[data-testid="sc-node"]').first().waitFor();
          await frameIs(when === 'later' ? 'n > 1' : 'n === 1');
          // Layout settled: fonts loaded and two frames drawn since.
          await lab.page.evaluate('document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))');
          const seen = (await lab.page.evaluate(PROBLEMS)) as { problems: string[]; pods: number };
          await lab.page.screenshot({ path: join(SHOTS, `${scenario}-${width}x${height}-${when}.png`) });
          if (loop === 'incus-hpa' && when === 'later') expect(seen.pods, `${scenario}: pods drawn`).toBeGreaterThan(scenario === 'bench-200-pods' ? 100 : 1);
          found.push(...seen.problems.map((p) => `${when}: ${p}`));
        }
        // The editor's tab, opened: its buttons (Apply) are on screen, not scrolled out of its panel.
        const editorTab = lab.page.getByTestId('tab-editor');
        if (await editorTab.count()) {
          await editorTab.click();
          await lab.page.getByTestId('config-editor').waitFor();
          found.push(...((await lab.page.evaluate(EDITOR_BUTTONS)) as string[]));
          await lab.page.screenshot({ path: join(SHOTS, `${scenario}-${width}x${height}-editor.png`) });
        }
        expect(found, `${scenario} at ${width}×${height}`).toEqual([]);
      }, 120_000);
    }
  }
});
