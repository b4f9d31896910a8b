/**
 * How a function's running time grows when its input doubles: a benchmark with a loose bound,
 * not a timed test. Absolute times depend on the machine and its load; the ratio between an
 * input and one twice its size does not (about 2 for linear work, about 4 for quadratic work).
 */

/** Enough work per sample that timer resolution (100 µs in browsers) and jitter do not matter. */
const minimumSampleMs = 30
const samples = 7

function now(): number {
  return performance.now()
}

/** Milliseconds for `repetitions` calls of `run`. */
function timeOf(run: () => void, repetitions: number): number {
  const started = now()
  for (let index = 0; index < repetitions; index++) run()
  return now() - started
}

/**
 * The fastest sample: other processes and garbage collection only ever add time, so the minimum
 * is the estimate of the work itself that load disturbs least.
 */
function fastest(values: readonly number[]): number {
  return Math.min(...values)
}

/** Times per call of an input and of one twice its size. */
export interface DoublingMeasurement {
  /** Fastest milliseconds per call at the smaller size. */
  readonly smallMs: number
  /** Fastest milliseconds per call at twice the size. */
  readonly largeMs: number
  /** `largeMs / smallMs`: about 2 for linear work, about 4 for quadratic work. */
  readonly ratio: number
}

/**
 * Times `run(makeInput(size))` against `run(makeInput(2 * size))`. Inputs are built once,
 * outside the timing; both are warmed up first, the number of calls per sample is calibrated on
 * the smaller input, and the samples of the two sizes alternate, so a change in machine load
 * affects both alike.
 */
export function measureDoubling<Input>(
  makeInput: (size: number) => Input,
  run: (input: Input) => void,
  size: number,
): DoublingMeasurement {
  const small = makeInput(size)
  const large = makeInput(2 * size)
  const runSmall = () => run(small)
  const runLarge = () => run(large)
  timeOf(runSmall, 3)
  timeOf(runLarge, 3)
  let repetitions = 1
  while (timeOf(runSmall, repetitions) < minimumSampleMs && repetitions < 1 << 20) repetitions *= 2
  const smallTimes: number[] = []
  const largeTimes: number[] = []
  for (let sample = 0; sample < samples; sample++) {
    smallTimes.push(timeOf(runSmall, repetitions))
    largeTimes.push(timeOf(runLarge, repetitions))
  }
  const smallMs = fastest(smallTimes) / repetitions
  const largeMs = fastest(largeTimes) / repetitions
  return { smallMs, largeMs, ratio: largeMs / smallMs }
}

/** {@link measureDoubling}'s ratio alone, for tests that bound it. */
export function doublingRatio<Input>(
  makeInput: (size: number) => Input,
  run: (input: Input) => void,
  size: number,
): number {
  return measureDoubling(makeInput, run, size).ratio
}

/** Calls `run` and swallows what it throws: for inputs whose refusal is what is timed. */
export function ignoringErrors<Input>(run: (input: Input) => unknown): (input: Input) => void {
  return (input) => {
    try {
      run(input)
    } catch {
      // The refusal is the work being timed.
    }
  }
}
