import { describe, expect, it } from 'vitest';
import { galleryPath, offsite, useLabPage, withChromium } from './harness';

withChromium.describe('puppet and terraform world views in chromium', () => {
  const lab = useLabPage();

  const { open } = lab;
  const stepUntil = (done: () => Promise<boolean>, max = 150) => lab.stepUntil(done, max);
  const count = (selector: string) => lab.page.locator(selector).count();
  const screenshot = async (loop: string, scenario: string, t: number) => {
    await open(`?loop=${loop}&scenario=${scenario}&t=${t}`);
    await lab.page.locator('[data-testid="sc-node"]').first().waitFor();
    await lab.page.screenshot({ path: galleryPath(loop), fullPage: true });
  };

  describe('puppet', () => {
    it('shows each resource of the last report: failed, skipped dependents, changed; later a corrected drift', async () => {
      await open('?loop=puppet&scenario=puppet-failed-dependency');
      expect(await lab.page.getByTestId('world-json').count()).toBe(0);
      expect(await lab.page.getByTestId('puppet-resource').count()).toBe(0);
      // Run 1: the mirror answers 503, the package fails and its dependents are skipped (exit 4|2 = 6).
      await stepUntil(async () => (await lab.page.getByTestId('puppet-last').getAttribute('data-status')) === 'failed');
      expect(await lab.page.getByTestId('puppet-last').getAttribute('data-exit')).toBe('6');
      expect(await lab.page.getByTestId('puppet-resource').count()).toBe(5);
      expect(await lab.page.locator('[data-testid="puppet-resource"][data-ref="Package[postgresql]"]').getAttribute('data-badge')).toBe(
        'failed',
      );
      expect(await count('[data-testid="puppet-resource"][data-badge="skipped"]')).toBe(2);
      expect(await count('[data-testid="puppet-resource"][data-badge="intentional"]')).toBeGreaterThan(0);
      expect(await lab.page.getByTestId('puppet-resources').innerText()).toContain('503 Service Unavailable');
      // Run 2, after the cron job rewrote the motd: Puppet puts it back — a corrective change.
      await stepUntil(
        async () =>
          (await lab.page.locator('[data-testid="puppet-resource"][data-ref="File[/etc/motd]"]').getAttribute('data-badge')) ===
          'corrective',
      );
      expect(await lab.page.locator('[data-testid="chart"] canvas').count()).toBeGreaterThan(0);
      await screenshot('puppet', 'puppet-failed-dependency', 1_900_000);
    });
  });

  describe('terraform', () => {
    it('shows the plan as a diff (+ then ~ with before → after), the lock holder and the serial', async () => {
      await open('?loop=terraform&scenario=terraform-drift');
      expect(await lab.page.getByTestId('world-json').count()).toBe(0);
      expect(await lab.page.getByTestId('terraform-serial').innerText()).toBe('0');
      await stepUntil(async () => (await lab.page.getByTestId('terraform-lock').getAttribute('data-holder')) === 'ci@runner-1');
      expect(await lab.page.getByTestId('terraform-lock').innerText()).toContain('OperationTypeApply');
      await stepUntil(async () => (await count('[data-testid="terraform-change"][data-symbol="+"][data-status="done"]')) === 4);
      await stepUntil(async () => (await lab.page.getByTestId('terraform-lock').getAttribute('data-holder')) === '');
      expect(Number(await lab.page.getByTestId('terraform-serial').innerText())).toBeGreaterThan(0);
      // Run 2 puts the console drift back in place.
      await stepUntil(async () => (await count('[data-testid="terraform-change"][data-symbol="~"]')) > 0, 200);
      const sg = lab.page.locator('[data-testid="terraform-change"][data-address="aws_security_group.web"]');
      await stepUntil(async () => (await sg.count()) > 0);
      expect(await sg.innerText()).toContain('ingress_port = 22 → 443');
      expect(await lab.page.locator('[data-testid="chart"] canvas').count()).toBeGreaterThan(0);
      // Later the AMI change replaces the instance, new one first (create_before_destroy).
      await open('?loop=terraform&scenario=terraform-drift&t=2980000');
      await lab.page.locator('[data-testid="terraform-change"][data-symbol="+/-"]').waitFor();
      expect(await lab.page.locator('[data-testid="terraform-change"][data-symbol="+/-"]').innerText()).toContain(
        'ami = "ami-0a1b2c3d" → "ami-0e9f8a7b"',
      );
      await screenshot('terraform', 'terraform-drift', 2_000_000);
    });
  });

  it('made no console errors and no request left 127.0.0.1', () => {
    expect(lab.seen.errors).toEqual([]);
    expect(lab.seen.requests.length).toBeGreaterThan(0);
    expect(offsite(lab.seen.requests)).toEqual([]);
  });
});
