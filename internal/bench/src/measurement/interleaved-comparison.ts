import { type Distribution, summarize } from './statistics.js'

/** One side of a comparison: a name for the report and the operation to time. */
export interface Contender {
  readonly name: string
  /** One operation; awaited when it returns a promise. */
  readonly run: () => unknown
}

/** How much to measure. Every figure picks its own plan from the cost of one operation. */
export interface MeasurementPlan {
  /** Operations of each contender before timing starts (JIT, caches, connections). */
  readonly warmupIterations: number
  /** Timed operations of each contender. */
  readonly samples: number
}

/** Both distributions of one comparison, measured in the same run. */
export interface InterleavedComparison {
  readonly baselineName: string
  readonly subjectName: string
  readonly baseline: Distribution
  readonly subject: Distribution
  /** Median of the subject over median of the baseline: 1.00 means "costs the same". */
  readonly ratio: number
  /**
   * Fastest subject operation over fastest baseline operation: what each costs when nothing
   * interrupts it. Printed next to the median ratio because on a busy machine long operations
   * are preempted often and medians wander; the budgets are still judged on the median.
   */
  readonly fastestRatio: number
  /** Median of the subject minus median of the baseline, in milliseconds. */
  readonly overheadMs: number
}

/**
 * Times a subject against a baseline in one run: both warm up, then they alternate operation
 * by operation, in pairs whose order flips every time (baseline-subject, subject-baseline,
 * …). Load from other processes — on a shared two-core machine it comes in bursts of a few
 * milliseconds — therefore falls on both sides alike and cancels out of the ratio, which is
 * the figure the budgets are set on; absolute milliseconds are reported for context only.
 *
 * Each operation is timed on its own with `performance.now()`, so one slow operation shows in
 * the p95 instead of being averaged away.
 */
export async function compareInterleaved(
  baseline: Contender,
  subject: Contender,
  plan: MeasurementPlan,
): Promise<InterleavedComparison> {
  for (let iteration = 0; iteration < plan.warmupIterations; iteration++) {
    await baseline.run()
    await subject.run()
  }
  const baselineSamples: number[] = []
  const subjectSamples: number[] = []
  for (let pair = 0; pair < plan.samples; pair++) {
    if (pair % 2 === 0) {
      baselineSamples.push(await timeOnce(baseline.run))
      subjectSamples.push(await timeOnce(subject.run))
    } else {
      subjectSamples.push(await timeOnce(subject.run))
      baselineSamples.push(await timeOnce(baseline.run))
    }
  }
  const baselineDistribution = summarize(baselineSamples)
  const subjectDistribution = summarize(subjectSamples)
  return {
    baselineName: baseline.name,
    subjectName: subject.name,
    baseline: baselineDistribution,
    subject: subjectDistribution,
    ratio: subjectDistribution.median / baselineDistribution.median,
    fastestRatio: subjectDistribution.min / baselineDistribution.min,
    overheadMs: subjectDistribution.median - baselineDistribution.median,
  }
}

/**
 * Times one contender alone (for figures with an absolute goal and no baseline), with the same
 * warm-up and per-operation timing as {@link compareInterleaved}.
 */
export async function measureAlone(
  contender: Contender,
  plan: MeasurementPlan,
): Promise<Distribution> {
  for (let iteration = 0; iteration < plan.warmupIterations; iteration++) await contender.run()
  const samples: number[] = []
  for (let index = 0; index < plan.samples; index++) samples.push(await timeOnce(contender.run))
  return summarize(samples)
}

/** Times a single operation, in milliseconds (also used for first-call figures). */
export async function timeOnce(operation: () => unknown): Promise<number> {
  const started = performance.now()
  await operation()
  return performance.now() - started
}
