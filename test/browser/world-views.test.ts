import { expect, it } from 'vitest';
import { galleryPath, offsite, useLabPage, withChromium } from './harness';

withChromium.describe('dedicated world views in chromium', () => {
  const lab = useLabPage();

  const { text, attr, open, stepUntil } = lab;
  const screenshot = async (loop: string, scenario: string) => {
    await open(`?loop=${loop}&scenario=${scenario}&t=90000`);
    await lab.page.locator('[data-testid="sc-node"]').first().waitFor();
    await lab.page.screenshot({ path: galleryPath(loop), fullPage: true });
  };

  it('systemd-restart: systemctl status, NRestarts and the start-limit window follow the crash loop', async () => {
    await open('?loop=systemd-restart&scenario=systemd-crash-loop');
    expect(await lab.page.getByTestId('world-json').count()).toBe(0);
    expect(await attr('unit-status', 'data-active')).toBe('activating');
    await stepUntil(async () => (await attr('unit-status', 'data-sub')) === 'running');
    expect(await text('main-pid')).toBe('1000');
    // Each SIGSEGV is followed by a restart: the counter climbs and the window fills.
    await stepUntil(async () => Number(await text('n-restarts')) >= 2);
    expect(Number(await attr('start-limit', 'data-num'))).toBeGreaterThanOrEqual(2);
    expect(await attr('start-limit', 'data-burst')).toBe('5');
    // StartLimitBurst=5 within 10 s: the sixth start is refused.
    await stepUntil(async () => (await text('last-result')) === 'start-limit-hit');
    await stepUntil(async () => (await attr('unit-status', 'data-active')) === 'failed');
    expect(await text('unit-status')).toContain('Result: start-limit-hit');
    // reset-failed flushes the limit and NRestarts; start starts it again.
    await lab.page.getByTestId('systemctl-reset-failed').click();
    expect(await text('note')).toMatch(/systemctl reset-failed app\.service/);
    expect(await text('n-restarts')).toBe('0');
    await lab.page.getByTestId('systemctl-start').click();
    await stepUntil(async () => (await attr('unit-status', 'data-sub')) === 'running');
    expect(await attr('start-limit', 'data-num')).toBe('1');
    expect(await lab.page.locator('[data-testid="chart"] canvas').count()).toBeGreaterThan(0);
    await screenshot('systemd-restart', 'systemd-crash-loop');
  });

  it('cron: the wall clock, the crontab with next runs, and overlapping runs; a clock jump shows at once', async () => {
    await open('?loop=cron&scenario=cron-normal');
    expect(await lab.page.getByTestId('world-json').count()).toBe(0);
    const first = await text('wall-clock');
    expect(first).toBe('2026-06-01 06:58');
    expect(await lab.page.getByTestId('crontab-row').count()).toBe(4);
    await stepUntil(async () => (await text('wall-clock')) !== first);
    // Observing: crond has not processed the new minute yet (virtualTime lags); comparing catches up.
    expect(await text('crond-clock')).toBe(first);
    await lab.page.getByTestId('btn-step').click();
    expect(await text('crond-clock')).toBe(await text('wall-clock'));
    // "sync" runs longer than its period: two of its runs overlap (a second lane).
    await stepUntil(async () => (await lab.page.locator('[data-testid="run-bar"][data-lane="1"]').count()) > 0, 120);
    const before = await text('wall-clock');
    await lab.page.getByTestId('clock-jump-3600000').click();
    expect(await text('note')).toMatch(/clock jumps \+60 min/);
    const after = await text('wall-clock');
    expect(Date.parse(`${after.replace(' ', 'T')}:00Z`) - Date.parse(`${before.replace(' ', 'T')}:00Z`)).toBe(3_600_000);
    await lab.page.getByTestId('host-down').click();
    expect(await lab.page.getByTestId('host-down').count()).toBe(2); // the button and the world's badge
    expect(await lab.page.locator('[data-testid="chart"] canvas').count()).toBeGreaterThan(0);
    await screenshot('cron', 'cron-normal');
  });

  it('kubernetes: pods under their nodes, kubectl-like tables and events; crash a pod and fail a node', async () => {
    await open('?loop=kubernetes&scenario=kubernetes-deployment');
    expect(await lab.page.getByTestId('world-json').count()).toBe(0);
    expect(await lab.page.getByTestId('kubernetes-node').count()).toBeGreaterThan(0);
    const pods0 = await lab.page.getByTestId('kubernetes-pod').count();
    await stepUntil(async () => (await lab.page.getByTestId('kubernetes-pod').count()) !== pods0);
    await stepUntil(async () => Number(await text('kubernetes-ready')) > 0, 200);
    expect(await lab.page.getByTestId('kubernetes-deployments').count()).toBe(1);
    expect(await lab.page.getByTestId('kubernetes-replicasets').count()).toBe(1);
    const victim = await lab.page.locator('[data-testid="kubernetes-pod"][data-ready="true"]').first().getAttribute('data-name');
    await lab.page.getByTestId('k8s-pod').selectOption(victim!);
    await lab.page.getByTestId('k8s-crash-pod').click();
    expect(await lab.page.locator(`[data-testid="kubernetes-pod"][data-name="${victim}"]`).getAttribute('data-ready')).toBe('false');
    expect(await text('kubernetes-events')).toMatch(/BackOff/);
    const node = await lab.page.getByTestId('kubernetes-node').first().getAttribute('data-node');
    await lab.page.getByTestId('k8s-node').selectOption(node!);
    await lab.page.getByTestId('k8s-fail-node').click();
    expect(await lab.page.locator(`[data-testid="kubernetes-node"][data-node="${node}"]`).getAttribute('data-ready')).toBe('false');
    await lab.page.getByTestId('k8s-recover-node').click();
    expect(await lab.page.locator(`[data-testid="kubernetes-node"][data-node="${node}"]`).getAttribute('data-ready')).toBe('true');
    await lab.page.getByTestId('k8s-delay-watch').click();
    expect(await text('note')).toMatch(/watch of every kind delayed by 5s/);
    expect(await lab.page.locator('[data-testid="chart"] canvas').count()).toBeGreaterThan(0);
    await screenshot('kubernetes', 'kubernetes-deployment');
  });

  it('made no console errors and no request left 127.0.0.1', () => {
    expect(lab.seen.errors).toEqual([]);
    expect(lab.seen.requests.length).toBeGreaterThan(0);
    expect(offsite(lab.seen.requests)).toEqual([]);
  });
});
