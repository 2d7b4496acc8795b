import ELK from 'elkjs/lib/elk.bundled.js';
import { LOOPS } from '../../sim/loops/registry';
import { machineGraph } from './graph';
import { labelGraph } from './labels';
import type { SerializedLayout } from './layout';
import { layoutGraph, serializeLayout } from './layout';

/** Lays out every registered loop's statechart with ELK (Node side: build and dev server). */
export async function computeLayouts(): Promise<Record<string, SerializedLayout>> {
  const elk = new ELK();
  const out: Record<string, SerializedLayout> = {};
  for (const entry of Object.values(LOOPS)) {
    const machine = entry.binding.machine;
    out[machine.id] = serializeLayout(await layoutGraph(elk, labelGraph(entry.id, machineGraph(machine))));
  }
  return out;
}
