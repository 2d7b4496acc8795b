import { expect, it } from 'vitest';
import { offsite, useLabPage, withChromium } from './harness';

withChromium.describe('desired-state editors and interventions in chromium', () => {
  const lab = useLabPage();

  const { text, attr, open, stepUntil } = lab;
  /** What the world view and the latest note show: an invalid edit must leave both as they were. */
  const snapshot = async () => `${await text('world')}\n${await text('note')}`;

  it('systemd-restart: an invalid unit edit names the key and changes nothing; a valid one is a daemon-reload', async () => {
    await open('?loop=systemd-restart&scenario=systemd-crash-loop');
    await stepUntil(async () => (await attr('unit-status', 'data-sub')) === 'running');
    const editor = lab.page.getByTestId('config-text');
    expect(await editor.inputValue()).toMatch(/StartLimitBurst=5/);
    expect(await editor.inputValue()).toMatch(/Restart=on-failure/);
    const before = await snapshot();
    await editor.fill('[Service]\nRestart=sometimes\n[Unit]\nStartLimitBurst=many\n');
    await lab.page.getByTestId('config-apply').click();
    const error = await text('config-error');
    expect(error).toMatch(/Restart: expected one of no, .*on-failure/);
    expect(error).toMatch(/StartLimitBurst: expected a whole number ≥ 0/);
    expect(await lab.page.getByTestId('config-applied').count()).toBe(0);
    expect(await snapshot()).toBe(before);
    await editor.fill('Restart=on-failure\nBroken line\n');
    await lab.page.getByTestId('config-apply').click();
    expect(await text('config-error')).toMatch(/line 2: expected Key=value/);
    expect(await snapshot()).toBe(before);
    // Valid: a larger burst; the start-limit window the view draws follows from the next step on.
    await editor.fill('[Unit]\nStartLimitIntervalSec=10s\nStartLimitBurst=9\n\n[Service]\nRestart=on-failure\nRestartSec=100ms\n');
    await lab.page.getByTestId('config-apply').click();
    expect(await lab.page.getByTestId('config-error').count()).toBe(0);
    expect(await lab.page.getByTestId('config-applied').count()).toBe(1);
    expect(await text('note')).toMatch(/unit edited \+ daemon-reload: Restart=on-failure/);
    await lab.page.getByTestId('btn-step').click();
    expect(await attr('start-limit', 'data-burst')).toBe('9');
    // With 9 allowed starts the sixth start is no longer refused.
    await stepUntil(async () => Number(await text('n-restarts')) >= 6, 200);
    expect(await text('last-result')).not.toBe('start-limit-hit');
  });

  it('kubernetes: spec.replicas must be a whole number ≥ 0; a valid one is kubectl scale', async () => {
    await open('?loop=kubernetes&scenario=kubernetes-deployment');
    await stepUntil(async () => (await lab.page.getByTestId('kubernetes-replicasets').count()) > 0, 200);
    await lab.page.getByTestId('k8s-scale-target').selectOption('Deployment/default/web');
    const input = lab.page.getByTestId('k8s-replicas');
    expect(await input.inputValue()).toBe('4');
    const before = await snapshot();
    for (const bad of ['-1', '2.5', 'two']) {
      await input.fill(bad);
      await lab.page.getByTestId('config-apply').click();
      expect(await text('config-error')).toBe(`spec.replicas: expected a whole number ≥ 0, got "${bad}"`);
      expect(await snapshot()).toBe(before);
    }
    await input.fill('2');
    await lab.page.getByTestId('config-apply').click();
    expect(await lab.page.getByTestId('config-error').count()).toBe(0);
    expect(await text('note')).toMatch(/kubectl scale deployment\/web --replicas=2/);
    const desired = () => lab.page.locator('[data-testid="kubernetes-replicasets"] tbody tr td').nth(1).innerText();
    await stepUntil(async () => (await desired()) === '2', 200);
    await stepUntil(async () => (await lab.page.locator('[data-testid="kubernetes-pod"]').count()) === 2, 300);
  });

  it('puppet: a file drift needs an absolute path; a valid drift is corrected on the next run; a service can be stopped', async () => {
    await open('?loop=puppet&scenario=puppet-webserver');
    await stepUntil(async () => (await attr('puppet-last', 'data-status')) !== '', 300);
    const conf = 'File[/etc/nginx/nginx.conf]';
    const badge = () => lab.page.locator(`[data-testid="puppet-resource"][data-ref="${conf}"]`).getAttribute('data-badge');
    expect(await badge()).toBe('intentional');
    const before = await snapshot();
    await lab.page.getByTestId('puppet-drift-path').fill('etc/nginx/nginx.conf');
    await lab.page.getByTestId('puppet-drift-file').click();
    expect(await text('puppet-drift-error')).toBe('File: expected an absolute path like /etc/motd, got "etc/nginx/nginx.conf"');
    expect(await snapshot()).toBe(before);
    await lab.page.getByTestId('puppet-drift-path').fill('/etc/nginx/nginx.conf');
    await lab.page.getByTestId('puppet-drift-content').fill('worker_processes 1; # by hand');
    await lab.page.getByTestId('puppet-drift-file').click();
    expect(await lab.page.getByTestId('puppet-drift-error').count()).toBe(0);
    expect(await text('note')).toMatch(/changed outside Puppet: File\[\/etc\/nginx\/nginx\.conf\] content => worker_processes 1; #…/);
    // The agent's next run reverts it: a corrective change.
    await stepUntil(async () => (await badge()) === 'corrective', 300);
    await lab.page.getByTestId('puppet-service').selectOption('nginx');
    await lab.page.getByTestId('puppet-stop-service').click();
    expect(await text('note')).toMatch(/changed outside Puppet: Service\[nginx\] ensure => 'stopped'/);
    expect(await lab.page.locator('[data-testid="puppet-service"] option[value="nginx"]').count()).toBe(0);
    // The next run starts it again (corrective) and the report says so.
    await stepUntil(
      async () =>
        (await lab.page.locator('[data-testid="puppet-resource"][data-ref="Service[nginx]"]').getAttribute('data-badge')) === 'corrective',
      300,
    );
    expect(await lab.page.locator('[data-testid="puppet-service"] option[value="nginx"]').count()).toBe(1);
  });

  it('made no console errors and no request left 127.0.0.1', () => {
    expect(lab.seen.errors).toEqual([]);
    expect(lab.seen.requests.length).toBeGreaterThan(0);
    expect(offsite(lab.seen.requests)).toEqual([]);
  });
});
