import { loopById } from '../../sim/loops/registry';
import type { Trace } from '../../sim/trace';
import { activeIds, machineGraph } from '../statechart/graph';

/** A loaded trace's states must be its loop's (the statechart lights them): the first one that is not, in words. */
export function traceStateProblem(trace: Trace): string | null {
  const machine = loopById(trace.loop)?.binding.machine;
  if (!machine) return null;
  const graph = machineGraph(machine);
  const known = new Set(graph.nodes.map((n) => n.id));
  for (const [i, f] of trace.frames.entries()) {
    const missing = [...activeIds(graph.rootId, f.state)].find((id) => !known.has(id));
    if (missing !== undefined) {
      const leaves = graph.nodes.filter((n) => !n.compound).map((n) => n.id.slice(graph.rootId.length + 1));
      return `frames.${i}.state: "${f.state}" is not a state of ${trace.loop} (expected one of ${leaves.slice(0, 10).join(', ')}${leaves.length > 10 ? ', …' : ''})`;
    }
  }
  return null;
}
