import { POLICY_NAMES } from '../../machines/incus-hpa';
import { HpaCharts } from './hpa/HpaCharts';
import { HpaConfigEditor } from './hpa/HpaConfigEditor';
import { HpaInterventions } from './hpa/HpaInterventions';
import { HpaWorldView } from './hpa/HpaWorldView';
import { JsonWorldView } from './JsonWorldView';
import type { LoopViews } from './types';

/** Custom views per loop id; a loop added to LOOPS without one gets the JSON fallback. */
const VIEWS: Record<string, LoopViews> = {
  'incus-hpa': { World: HpaWorldView, Charts: HpaCharts, Interventions: HpaInterventions, Editor: HpaConfigEditor, policies: POLICY_NAMES },
};

export const viewsFor = (loop: string): LoopViews => VIEWS[loop] ?? { World: JsonWorldView };
