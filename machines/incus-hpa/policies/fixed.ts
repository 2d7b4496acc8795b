import type { HpaAction, Policy } from '../types';

/**
 * The seed's rule with its defects repaired, as a careful engineer would ship it:
 * - only instances carrying this HPA's owner key count or are touched (never a name prefix);
 * - Starting instances count toward the replica count, so a slow start does not double-create;
 * - the count is clamped into [min, max] whatever the load (the seed only acts at min when idle);
 * - one step per period on load (avg ≥ threshold → +1, avg < threshold/2 → −1), oldest deleted first;
 * - owned instances left Stopped (an interrupted delete, a crash) are deleted and so replaced;
 * - every delete waits for its stop operation before deleting.
 */
export const fixedPolicy: Policy = ({ observation, config, memory }) => {
  const owned = observation.instances.filter((i) => i.owner === config.name);
  const active = owned.filter((i) => i.status === 'Running' || i.status === 'Starting');
  const starting = active.filter((i) => i.status === 'Starting').length;
  const leftovers = owned.filter((i) => i.status === 'Stopped' || i.status === 'Error');
  const measured = active.filter((i) => i.status === 'Running' && i.memoryTotal > 0);
  const avg =
    measured.length === 0 ? null : Math.floor(measured.reduce((s, p) => s + (p.memoryUsage * 100) / p.memoryTotal, 0) / measured.length);
  const count = active.length;
  const threshold = config.memoryThreshold;
  const oldest = [...active].sort((a, b) => a.createdAt - b.createdAt || a.name.localeCompare(b.name));
  const cleanup: HpaAction[] = leftovers.map((i) => ({ kind: 'delete', name: i.name, waitForStop: true }));
  const avgText = avg === null ? 'no running pod measured' : `avg ${avg}%`;
  const base = { policy: 'fixed' as const, running: count, averagePercent: avg, memory };
  const cleanupText = cleanup.length ? ` + remove ${cleanup.length} stopped` : '';

  if (count < config.minPods) {
    const n = config.minPods - count;
    return {
      ...base,
      desired: config.minPods,
      actions: [...cleanup, ...Array.from({ length: n }, () => ({ kind: 'create' as const }))],
      comparison: `${count} pods < min ${config.minPods}`,
      verdict: `create ${n}${cleanupText}`,
    };
  }
  if (count > config.maxPods) {
    const victims = oldest.slice(0, count - config.maxPods);
    return {
      ...base,
      desired: config.maxPods,
      actions: [...cleanup, ...victims.map((v) => ({ kind: 'delete' as const, name: v.name, waitForStop: true }))],
      comparison: `${count} pods > max ${config.maxPods}`,
      verdict: `delete ${victims.length} oldest${cleanupText}`,
    };
  }
  if (avg !== null && avg >= threshold && count < config.maxPods && starting === 0) {
    return {
      ...base,
      desired: count + 1,
      actions: [...cleanup, { kind: 'create' }],
      comparison: `${avgText} ≥ threshold ${threshold}%, ${count} pods < max ${config.maxPods}`,
      verdict: `create 1${cleanupText}`,
    };
  }
  if (avg !== null && avg < threshold / 2 && count > config.minPods && starting === 0) {
    const victim = oldest[0]!;
    return {
      ...base,
      desired: count - 1,
      actions: [...cleanup, { kind: 'delete', name: victim.name, waitForStop: true }],
      comparison: `${avgText} < threshold/2 ${threshold / 2}%, ${count} pods > min ${config.minPods}`,
      verdict: `delete ${victim.name} (oldest)${cleanupText}`,
    };
  }
  const why =
    starting > 0
      ? `${starting} starting: wait for it`
      : avg === null
        ? 'nothing to compare'
        : avg >= threshold
          ? `≥ threshold ${threshold}%, at max ${config.maxPods}`
          : avg < threshold / 2
            ? `< threshold/2 ${threshold / 2}%, at min ${config.minPods}`
            : `within [${threshold / 2}%, ${threshold}%)`;
  return {
    ...base,
    desired: count,
    actions: cleanup,
    comparison: `${avgText}, ${count} pods: ${why}`,
    verdict: cleanup.length ? `remove ${cleanup.length} stopped` : 'no scale action',
  };
};
