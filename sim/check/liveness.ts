import type { EdgeList } from './edges';
import { TICK } from './expander';
import type { Fairness, LivenessKind, PathStep } from './model';

/**
 * Liveness over the explored state graph: is there an infinite, weakly fair run on which the
 * property fails? In a finite graph such a run can be taken as a lasso — a finite prefix, then a
 * cycle repeated for ever — so the search is for a reachable fair cycle (SPIN's acceptance cycles,
 * TLC's liveness check), here with Tarjan's strongly connected components over typed arrays.
 *
 * Weak fairness of the controller (TLA+'s WF_vars(Tick), Lamport, "Specifying Systems" §8.4;
 * SPIN's `-f` weak fairness): a run on which the controller's own step — time passing, the next
 * queued timer or operation (TICK) — is enabled continuously from some point on yet never taken is
 * not a behaviour of the system. The environment's moves take no time, so without this rule the
 * environment could act for ever at one instant ("raise, lower, raise…" with the clock stopped: a
 * Zeno run) and starve the controller. On a lasso only the cycle matters: it is weakly fair exactly
 * when the tick is taken on it or is disabled somewhere on it. A state with nothing queued has a
 * stutter edge (time passes, nothing happens), recorded as a tick to itself; so "the cycle holds a
 * tick edge" is exactly the weak fairness condition, and an SCC holds a fair cycle exactly when it
 * has an internal tick edge (strongly connected: any edge of it lies on a cycle through any state).
 *
 * eventually-always Q (<>[]Q) fails iff a fair cycle passes through a ¬Q state (Q fails infinitely
 * often); P leads-to Q (P ~> Q) fails iff from some reachable P ∧ ¬Q state a fair run stays in ¬Q
 * for ever: a fair cycle of the ¬Q sub-graph reachable inside it.
 */
export interface LivenessGraph {
  /** States, numbered in BFS order (0 the start): a smaller id is at most as deep. */
  n: number;
  edges: EdgeList;
  /** Whether the per-state bit `column` is set for state `id` (judged.ts). */
  bit(column: number, id: number): boolean;
  /** A shortest path from the start to `id` (the BFS tree). */
  pathTo(id: number): PathStep[];
}

export interface Lasso {
  /** The prefix and the cycle, one path; the cycle is path[cycleStart …]. */
  path: PathStep[];
  cycleStart: number;
}

const stepOf = (via: number): PathStep => (via === TICK ? { kind: 'tick' } : { kind: 'env', index: via });

/** A lasso violating the property, or undefined when none exists in the graph. */
export function findLasso(graph: LivenessGraph, kind: LivenessKind, q: number, p: number, fairness: Fairness): Lasso | undefined {
  const { n, edges } = graph;
  const fairEdge = (via: number) => fairness === 'none' || via === TICK;
  // eventually-always: cycles anywhere (through a ¬Q state); leads-to: cycles inside ¬Q.
  const allowed = kind === 'leads-to' ? (id: number) => !graph.bit(q, id) : () => true;
  const { comp, fair, stays } = components(
    n,
    edges,
    allowed,
    fairEdge,
    kind === 'eventually-always' ? (id) => !graph.bit(q, id) : undefined,
  );

  let entry = -1;
  let prefix: PathStep[];
  if (kind === 'eventually-always') {
    // The shallowest ¬Q state on a fair cycle: BFS ids make its tree path a shortest prefix.
    for (let id = 0; id < n && entry < 0; id++) if (comp[id]! >= 0 && stays[comp[id]!] && !graph.bit(q, id)) entry = id;
    if (entry < 0) return undefined;
    prefix = graph.pathTo(entry);
  } else {
    // The shallowest P ∧ ¬Q state from which ¬Q can last for ever, then the nearest fair cycle from it.
    let trigger = -1;
    for (let id = 0; id < n && trigger < 0; id++) if (comp[id]! >= 0 && stays[comp[id]!] && graph.bit(p, id)) trigger = id;
    if (trigger < 0) return undefined;
    const toCycle = bfs(
      edges,
      n,
      trigger,
      (id) => comp[id]! >= 0,
      (id) => fair[comp[id]!] === 1,
    );
    if (!toCycle) throw new Error('liveness: a state that can stay violating reaches no fair cycle');
    entry = toCycle.end;
    prefix = [...graph.pathTo(trigger), ...toCycle.steps];
  }
  const cycle = cycleThrough(edges, n, entry, comp, fairEdge);
  return { path: [...prefix, ...cycle], cycleStart: prefix.length };
}

/**
 * Tarjan's SCCs of the sub-graph of allowed states, iteratively (no recursion: millions of
 * states). Per component: `fair`, it holds an internal fair edge (a fair cycle); `stays`, a fair
 * run can stay in the allowed states for ever from it — for eventually-always (`marked` given),
 * instead: it is fair and holds a marked (¬Q) state. Components complete in reverse topological
 * order, so a component's successors are decided before it.
 */
function components(
  n: number,
  edges: EdgeList,
  allowed: (id: number) => boolean,
  fairEdge: (via: number) => boolean,
  marked?: (id: number) => boolean,
) {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const comp = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const callEdge = new Int32Array(n);
  const fair = new Uint8Array(n);
  const stays = new Uint8Array(n);
  let sp = 0;
  let counter = 0;
  let comps = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1 || !allowed(root)) continue;
    let top = 0;
    callNode[0] = root;
    callEdge[0] = edges.first(root);
    index[root] = low[root] = counter++;
    stack[sp++] = root;
    onStack[root] = 1;
    while (top >= 0) {
      const v = callNode[top]!;
      const e = callEdge[top]!;
      if (e < edges.end(v)) {
        callEdge[top] = e + 1;
        const w = edges.target(e);
        if (!allowed(w)) continue;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack[sp++] = w;
          onStack[w] = 1;
          callNode[++top] = w;
          callEdge[top] = edges.first(w);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      if (low[v] === index[v]) {
        const c = comps++;
        let from = sp;
        do {
          from--;
          comp[stack[from]!] = c;
          onStack[stack[from]!] = 0;
        } while (stack[from] !== v);
        let isFair = false;
        let isMarked = false;
        let leadsOn = false;
        for (let i = from; i < sp; i++) {
          const u = stack[i]!;
          if (marked?.(u)) isMarked = true;
          for (let k = edges.first(u); k < edges.end(u); k++) {
            const w = edges.target(k);
            if (!allowed(w)) continue;
            if (comp[w] === c) {
              if (fairEdge(edges.move(k))) isFair = true;
            } else if (stays[comp[w]!]) leadsOn = true;
          }
        }
        sp = from;
        fair[c] = isFair ? 1 : 0;
        stays[c] = (marked ? isFair && isMarked : isFair || leadsOn) ? 1 : 0;
      }
      top--;
      if (top >= 0) {
        const u = callNode[top]!;
        low[u] = Math.min(low[u]!, low[v]!);
      }
    }
  }
  return { comp, fair, stays };
}

/** Breadth-first from `from` through `inside` states to the nearest `goal` state (edges in stored order). */
function bfs(edges: EdgeList, n: number, from: number, inside: (id: number) => boolean, goal: (id: number) => boolean) {
  if (goal(from)) return { end: from, steps: [] as PathStep[] }; // cast: types the empty array, asserts nothing about data
  const prevEdge = new Int32Array(n).fill(-1);
  const prevNode = new Int32Array(n).fill(-1);
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  queue[tail++] = from;
  seen[from] = 1;
  while (head < tail) {
    const u = queue[head++]!;
    for (let k = edges.first(u); k < edges.end(u); k++) {
      const w = edges.target(k);
      if (seen[w] || !inside(w)) continue;
      seen[w] = 1;
      prevEdge[w] = k;
      prevNode[w] = u;
      queue[tail++] = w;
      if (goal(w)) {
        const steps: PathStep[] = [];
        for (let at = w; at !== from; at = prevNode[at]!) steps.push(stepOf(edges.move(prevEdge[at]!)));
        return { end: w, steps: steps.reverse() };
      }
    }
  }
  return undefined;
}

/**
 * A short cycle from `entry` back to it inside its component, through a fair edge: the nearest
 * state with an internal fair edge (breadth-first), that edge, then the shortest way back.
 */
function cycleThrough(edges: EdgeList, n: number, entry: number, comp: Int32Array, fairEdge: (via: number) => boolean): PathStep[] {
  const c = comp[entry]!;
  const inside = (id: number) => comp[id] === c;
  const hasFairEdge = (u: number) => fairEdgeOf(edges, u, c, comp, fairEdge) >= 0;
  const toEdge = bfs(edges, n, entry, inside, hasFairEdge);
  if (!toEdge) throw new Error('liveness: a fair component without a fair edge');
  const k = fairEdgeOf(edges, toEdge.end, c, comp, fairEdge);
  const after = edges.target(k);
  const back = bfs(edges, n, after, inside, (id) => id === entry);
  if (!back) throw new Error('liveness: a component that is not strongly connected');
  return [...toEdge.steps, stepOf(edges.move(k)), ...back.steps];
}

function fairEdgeOf(edges: EdgeList, u: number, c: number, comp: Int32Array, fairEdge: (via: number) => boolean): number {
  for (let k = edges.first(u); k < edges.end(u); k++) if (comp[edges.target(k)] === c && fairEdge(edges.move(k))) return k;
  return -1;
}
