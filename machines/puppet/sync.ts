import type { Observation, ResourceType, Values } from './types';

const ABSENT = new Set(['absent', 'purged']);

/**
 * Property#insync? for the properties modelled (lib/puppet/type/package.rb, file.rb, service.rb,
 * user.rb): package `present`/`installed` accept any installed version, `latest` needs the
 * repository's newest (provider.latest), a version string needs exactly that; file `present`
 * accepts a file; everything else compares values.
 */
export function propertyInSync(
  type: ResourceType,
  property: string,
  should: string,
  current: string | undefined,
  latest: string | null,
): boolean {
  if (current === undefined) return false;
  if (property !== 'ensure') return should === current;
  switch (type) {
    case 'package':
      if (should === 'present' || should === 'installed') return !ABSENT.has(current);
      if (should === 'absent' || should === 'purged') return ABSENT.has(current);
      if (should === 'latest') return !ABSENT.has(current) && latest !== null && current === latest;
      return current === should;
    case 'file':
      return should === 'present' ? current === 'file' : should === current;
    default:
      return should === current;
  }
}

/** Properties other than ensure only matter while the resource exists (file content of an absent file, …). */
function managedWhen(type: ResourceType, should: Values): boolean {
  const e = should.ensure;
  if (e === undefined) return true;
  if (type === 'service') return true;
  return !ABSENT.has(e);
}

/**
 * Which properties a run changes (ResourceHarness#perform_changes): when `ensure` is out of sync
 * only `ensure` is synced — creating or removing the resource sets the rest — otherwise every
 * out-of-sync property, in the order the catalog lists them.
 */
export function outOfSync(type: ResourceType, should: Values, obs: Observation): string[] {
  const ensure = should.ensure;
  if (ensure !== undefined && !propertyInSync(type, 'ensure', ensure, obs.current.ensure, obs.latest)) return ['ensure'];
  if (!managedWhen(type, should)) return [];
  return Object.keys(should).filter((p) => p !== 'ensure' && !propertyInSync(type, p, should[p]!, obs.current[p], obs.latest));
}

/** The value a sync sets: `latest` resolves to the repository's newest version, `present` to it as well. */
export function targetValue(type: ResourceType, property: string, should: string, latest: string | null): string {
  if (type === 'package' && property === 'ensure' && (should === 'latest' || should === 'present' || should === 'installed'))
    return latest ?? should;
  if (type === 'file' && property === 'ensure' && should === 'present') return 'file';
  return should;
}

/**
 * Event#calculate_corrective_change (lib/puppet/transaction/event.rb): a change is corrective
 * when the value the system had at the end of the last run (the transaction store) is known and
 * is not in sync with the value found now — something outside Puppet changed it (drift). A
 * change because the catalog changed is intentional.
 */
export function isCorrective(
  type: ResourceType,
  property: string,
  oldSystemValue: string | undefined,
  current: string | undefined,
  latest: string | null,
): boolean {
  if (oldSystemValue === undefined) return false;
  // Model choice: a new version in the repository (ensure => latest) is an upgrade, not drift.
  if (type === 'package' && property === 'ensure' && oldSystemValue === 'latest' && current !== undefined && !ABSENT.has(current))
    return false;
  return !propertyInSync(type, property, oldSystemValue, current, latest);
}

/**
 * ResourceHarness#new_system_value: after a successful change, or when in sync, the store keeps
 * the catalog's value; after a noop or failed event it keeps the old system value if there is
 * one, else the value found.
 */
export function newSystemValue(
  event: 'success' | 'noop' | 'failure' | null,
  should: string,
  previous: string | undefined,
  oldSystemValue: string | undefined,
): string | undefined {
  if (event === 'noop' || event === 'failure') return oldSystemValue ?? previous;
  return should;
}
