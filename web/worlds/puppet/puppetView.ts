import type { Frame } from '../../../sim/trace';
import type { PuppetResourceRow, PuppetWorldSummary } from '../../../sim/worlds/puppet';
import type { MessageKey } from '../../i18n/messages';

export const asPuppet = (frame: Frame) => frame.world as PuppetWorldSummary;

/** The badge a resource gets: a changed resource is either corrected drift or a catalog change. */
export type PuppetBadge = 'in-sync' | 'corrective' | 'intentional' | 'failed' | 'skipped' | 'noop';

export function badgeOf(row: PuppetResourceRow): PuppetBadge {
  if (row.status === 'changed') return row.change === 'corrective' ? 'corrective' : 'intentional';
  return row.status === 'in sync' ? 'in-sync' : row.status;
}

export const BADGE_TEXT: Record<PuppetBadge, MessageKey> = {
  'in-sync': 'inSync', corrective: 'corrective', intentional: 'intentional', failed: 'failedStatus', skipped: 'skippedStatus', noop: 'noopStatus',
};
