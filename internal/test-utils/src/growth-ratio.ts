/**
 * How a function's running time grows when its input doubles: a benchmark with a loose bound,
 * not a timed test. Absolute times depend on the machine and its load; the growth per doubling
 * does not (about 2 for linear work, about 4 for quadratic work).
 *
 * The growth is measured over two doublings (size n against 4n) and reported per doubling
 * (the square root): a burst of load that slows one measurement by 1.8× moves a single doubling
 * from 2 to 3.6, but the per-doubling figure over two only from 2 to 2.7.
 */

/** Enough work per sample that timer resolution (100 µs in browsers) and jitter do not matter. */
const minimumSampleMs = 20
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
 * Calls per sample for a sample of at least {@link minimumSampleMs}. Each size gets its own, so
 * the samples of both sizes last about as long: on a loaded machine a long sample is interrupted
 * more surely than a short one, which would inflate the larger size's time.
 */
function calibrated(run: () => void): number {
  let repetitions = 1
  while (timeOf(run, repetitions) < minimumSampleMs && repetitions < 1 << 20) repetitions *= 2
  return repetitions
}

/**
 * The fastest sample: other processes and garbage collection only ever add time, so the minimum
 * is the estimate of the work itself that load disturbs least.
 */
function fastest(values: readonly number[]): number {
  return Math.min(...values)
}

/** Times per call of an input and of one four times its size, and the growth per doubling. */
export interface DoublingMeasurement {
  /** Fastest milliseconds per call at the size. */
  readonly smallMs: number
  /** Fastest milliseconds per call at four times the size. */
  readonly largeMs: number
  /** `sqrt(largeMs / smallMs)`: about 2 for linear work, about 4 for quadratic work. */
  readonly ratio: number
}

/**
 * Times `run(makeInput(size))` against `run(makeInput(4 * size))`. Inputs are built once,
 * outside the timing; both are warmed up first, the number of calls per sample is calibrated for
 * each, and the samples of the two sizes alternate, so a change in machine load affects both
 * alike.
 */
export function measureDoubling<Input>(
  makeInput: (size: number) => Input,
  run: (input: Input) => void,
  size: number,
): DoublingMeasurement {
  const small = makeInput(size)
  const large = makeInput(4 * size)
  const runSmall = () => run(small)
  const runLarge = () => run(large)
  timeOf(runSmall, 3)
  timeOf(runLarge, 3)
  const smallRepetitions = calibrated(runSmall)
  const largeRepetitions = calibrated(runLarge)
  const smallTimes: number[] = []
  const largeTimes: number[] = []
  for (let sample = 0; sample < samples; sample++) {
    smallTimes.push(timeOf(runSmall, smallRepetitions))
    largeTimes.push(timeOf(runLarge, largeRepetitions))
  }
  const smallMs = fastest(smallTimes) / smallRepetitions
  const largeMs = fastest(largeTimes) / largeRepetitions
  return { smallMs, largeMs, ratio: Math.sqrt(largeMs / smallMs) }
}

/** {@link measureDoubling}'s growth per doubling alone, for tests that bound it. */
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
