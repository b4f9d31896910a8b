import type { InterleavedComparison } from '../measurement/interleaved-comparison.js'
import type { Distribution } from '../measurement/statistics.js'
import { formatMilliseconds, formatRatio, roundTo } from './format.js'

/** `median 1.23 ms, p95 2.34 ms`. */
export function describeDistribution(distribution: Distribution): string {
  return `median ${formatMilliseconds(distribution.median)}, p95 ${formatMilliseconds(distribution.p95)}`
}

/** The JSON form of a distribution: median and p95 in milliseconds, and the sample count. */
export function distributionValues(distribution: Distribution): {
  medianMs: number
  p95Ms: number
  samples: number
} {
  return {
    medianMs: roundTo(distribution.median, 4),
    p95Ms: roundTo(distribution.p95, 4),
    samples: distribution.samples,
  }
}

/** `1.04× (1.58 vs 1.52 ms; p95 4.62 vs 5.07 ms; fastest 1.02×)`: subject vs baseline. */
export function describeComparison(comparison: InterleavedComparison): string {
  const { subject, baseline } = comparison
  return `${formatRatio(comparison.ratio)} (${formatMilliseconds(subject.median)} vs ${formatMilliseconds(baseline.median)}; p95 ${formatMilliseconds(subject.p95)} vs ${formatMilliseconds(baseline.p95)}; fastest ${formatRatio(comparison.fastestRatio)})`
}
