import type { LoopId } from '../loops/loop-id';

/**
 * The scenario `loopscope paths <loop>` generates from: the loop's check scenario, whose timeline
 * is written as an alphabet of moves (each at any instant, at most once) small enough to explore
 * exhaustively — "its world". A talk or demo scenario plays one long story; its timeline as an
 * alphabet is too large to search whole, so it is not the default (name it to use it).
 */
export const DEFAULT_PATH_SCENARIOS: Record<LoopId, string> = {
  'incus-hpa': 'incus-hpa-check-small.yaml',
  'systemd-restart': 'systemd-restart-check-restart-sec.yaml',
  cron: 'cron-check-cronjob-forbid.yaml',
  puppet: 'puppet-check-drift.yaml',
  terraform: 'terraform-check-crashed-lock.yaml',
  kubernetes: 'kubernetes-check-replicaset.yaml',
};
