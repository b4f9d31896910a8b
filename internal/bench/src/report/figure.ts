/**
 * What a benchmark section reports: figures with a goal, a measured value and a verdict, plus
 * free-form detail lines (breakdowns) and machine-readable values for `--json`.
 */

/**
 * - `pass`: the goal is met.
 * - `miss`: the goal is missed; reported, the run still succeeds (the cause goes to the lead).
 * - `FAIL`: a hard budget is broken; the run exits non-zero.
 * - `info`: a figure without a goal (comparisons printed for context).
 * - `error`: the measurement itself crashed; the run exits non-zero.
 */
export type Verdict = 'pass' | 'miss' | 'FAIL' | 'info' | 'error'

/** A JSON value, for the machine-readable part of a figure. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue }

/** One row of the report table. */
export interface Figure {
  /** Stable machine name, e.g. `bundle.upFront.gzipBytes`. */
  readonly id: string
  /** What is measured, for people. */
  readonly label: string
  /** The goal as text (`≤ 8 KB gz`), or `—` when there is none. */
  readonly goal: string
  /** The measured value as text, with its unit and baseline. */
  readonly measured: string
  readonly verdict: Verdict
  /** The raw numbers behind `measured`, for `--json`. */
  readonly values: Readonly<Record<string, JsonValue>>
}

/** What one benchmark section returns. */
export interface SectionReport {
  /** Stable machine name of the section, e.g. `bundle`. */
  readonly id: string
  readonly title: string
  readonly figures: readonly Figure[]
  /** Extra lines printed after the table (per-module breakdowns, baselines). */
  readonly details: readonly string[]
}

/** The verdict of a measured value against an upper-bound goal and an optional hard budget. */
export function verdictForLimit(measured: number, goal: number, hardBudget?: number): Verdict {
  if (hardBudget !== undefined && measured > hardBudget) return 'FAIL'
  return measured <= goal ? 'pass' : 'miss'
}
