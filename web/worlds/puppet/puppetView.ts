import type { PuppetResourceRow } from '../../../sim/loops/puppet-world-schema';
import type { MessageKey } from '../../i18n/messages';

/** The badge a resource gets: a changed resource is either corrected drift or a catalog change. */
export type PuppetBadge = 'in-sync' | 'corrective' | 'intentional' | 'failed' | 'skipped' | 'noop';

export function badgeOf(row: PuppetResourceRow): PuppetBadge {
  if (row.status === 'changed') return row.change === 'corrective' ? 'corrective' : 'intentional';
  return row.status === 'in sync' ? 'in-sync' : row.status;
}

export const BADGE_TEXT: Record<PuppetBadge, MessageKey> = {
  'in-sync': 'inSync',
  corrective: 'corrective',
  intentional: 'intentional',
  failed: 'failedStatus',
  skipped: 'skippedStatus',
  noop: 'noopStatus',
};

/** A report's status (Puppet's changed / unchanged / failed) as the UI language says it. */
const REPORT_PT: Record<string, string> = { changed: 'alterado', unchanged: 'inalterado', failed: 'falhou' };
export const reportStatusText = (status: string, lang: string): string => (lang === 'pt-BR' ? (REPORT_PT[status] ?? status) : status);
