import { LOOP_IDS } from '../../sim/loops/loop-id';
import { LOOP_UI } from '../loop-ui';
import type { TourStop } from './stop';

/**
 * The talk's tour: one stop per loop (each in its LOOP_UI entry), in the talk's order, which is the
 * loops' order of appearance (LOOP_IDS: cron 1975 → Puppet → systemd → Terraform → Kubernetes → the
 * Incus HPA lab).
 */
export const TOUR: readonly TourStop[] = LOOP_IDS.map((loop) => ({ loop, ...LOOP_UI[loop].tour }));
