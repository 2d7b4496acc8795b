/** Runs per fast-check property: at least `base` (200 in CI); more with LOOPSCOPE_PROPERTY_RUNS=N. */
export function propertyRuns(base = 200): number {
  const asked = Number(process.env.LOOPSCOPE_PROPERTY_RUNS);
  return Number.isFinite(asked) && asked > base ? asked : base;
}

/**
 * Run budget for a test that expects fast-check to FIND a counterexample. fc.check stops at the first
 * failing run, so the budget is a ceiling, not a cost: a finding generated in about 1 run of 67 (the
 * rarest here) is then missed with odds of about 10⁻¹³, where 200 runs missed it once in 20 CI runs.
 */
export const findRuns = (): number => propertyRuns(2000);
