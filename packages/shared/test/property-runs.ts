/**
 * The number of runs a property test makes: its default scaled by `PROPERTY_SCALE` (a positive
 * number, 1 when unset), so `npm test` keeps its quick defaults and a nightly-style run can ask
 * for more, e.g. `PROPERTY_SCALE=50` for fifty times as many sequences. At least one run. A value
 * that is not a positive number throws rather than falling back, so a mistyped scale cannot pass
 * for a long run that never happened.
 */
export function propertyRuns(defaultRuns: number): number {
  const raw = process.env.PROPERTY_SCALE;
  // why: an empty value is how shells and CI files usually leave a setting unset.
  if (raw === undefined || raw.trim() === '') return defaultRuns;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new Error(`PROPERTY_SCALE must be a positive number, got ${JSON.stringify(raw)}`);
  }
  return Math.max(1, Math.round(defaultRuns * scale));
}

/**
 * A property test's time limit, `defaultMs` at the default scale, grown with `PROPERTY_SCALE` (never
 * shrunk), so a nightly-style run is not cut off by the limit that fits `npm test`.
 */
export function propertyTimeout(defaultMs: number): number {
  return Math.max(defaultMs, Math.round((defaultMs * propertyRuns(1_000)) / 1_000));
}
