/** Runs per fast-check property: at least `base` (200 in CI); more with LOOPSCOPE_PROPERTY_RUNS=N. */
export function propertyRuns(base = 200): number {
  const asked = Number(process.env.LOOPSCOPE_PROPERTY_RUNS);
  return Number.isFinite(asked) && asked > base ? asked : base;
}
