/**
 * The ReplicaSet controller's expectations (kubernetes pkg/controller/controller_utils.go:
 * ControllerExpectations / UIDTrackingControllerExpectations). Before it creates or deletes pods
 * the controller records how many ADDED / DELETED watch events it expects; until they have all
 * arrived (or ExpectationsTimeout passed), SatisfiedExpectations is false and the controller does
 * not act on its cache, which may not yet show its own writes. This prevents double creation
 * when watch events are late.
 */

/** ExpectationsTimeout = 5 * time.Minute. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

export interface Expectation {
  add: number;
  del: number;
  timestamp: number;
  deleteKeys: string[];
}
export type Expectations = Record<string, Expectation>;

/** SatisfiedExpectations: no record, fulfilled (add ≤ 0 and del ≤ 0) or expired. */
export function satisfied(exp: Expectations, key: string, now: number): boolean {
  const e = exp[key];
  if (!e) return true;
  if (e.add <= 0 && e.del <= 0) return true;
  return now - e.timestamp > EXPECTATIONS_TIMEOUT_MS;
}

/** SetExpectations / ExpectCreations / ExpectDeletions (UID tracking for deletions). */
export function expect(exp: Expectations, key: string, add: number, deleteKeys: string[], now: number): Expectations {
  return { ...exp, [key]: { add, del: deleteKeys.length, deleteKeys, timestamp: now } };
}

/** CreationObserved: one expected ADDED arrived (or a create failed and never will). */
export function creationObserved(exp: Expectations, key: string): Expectations {
  const e = exp[key];
  if (!e) return exp;
  return { ...exp, [key]: { ...e, add: e.add - 1 } };
}

/** DeletionObserved: lowers `del` only for a pod this controller asked to delete. */
export function deletionObserved(exp: Expectations, key: string, podKey: string): Expectations {
  const e = exp[key];
  if (!e || !e.deleteKeys.includes(podKey)) return exp;
  return { ...exp, [key]: { ...e, del: e.del - 1, deleteKeys: e.deleteKeys.filter((k) => k !== podKey) } };
}

export function deleteExpectations(exp: Expectations, key: string): Expectations {
  if (!(key in exp)) return exp;
  const out = { ...exp };
  delete out[key];
  return out;
}
