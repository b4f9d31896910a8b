/**
 * Order statistics of timing samples. Medians and 95th percentiles, never means: one garbage
 * collection or one scheduler hiccup on a shared two-core machine moves a mean a lot and a
 * median hardly at all.
 */

/** A summary of timing samples, in milliseconds. */
export interface Distribution {
  readonly samples: number
  readonly median: number
  readonly p95: number
  readonly min: number
  readonly max: number
}

/**
 * The value at `fraction` (0–1) of the sorted samples, by the nearest-rank method (so the
 * result is always one of the samples, never an interpolation).
 *
 * @throws RangeError when there are no samples: a benchmark that measured nothing is a bug.
 */
export function percentile(sortedSamples: readonly number[], fraction: number): number {
  if (sortedSamples.length === 0) throw new RangeError('no samples to take a percentile of')
  const rank = Math.ceil(fraction * sortedSamples.length)
  const index = Math.min(sortedSamples.length - 1, Math.max(0, rank - 1))
  return sortedSamples[index] as number
}

/**
 * Summarizes samples as median, p95, min and max.
 *
 * @throws RangeError when there are no samples.
 */
export function summarize(samples: readonly number[]): Distribution {
  const sorted = [...samples].sort((left, right) => left - right)
  return {
    samples: sorted.length,
    median: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    min: percentile(sorted, 0),
    max: percentile(sorted, 1),
  }
}
