/**
 * How a function's running time grows when its input doubles: a benchmark with a loose bound,
 * not a timed test. Absolute times depend on the machine and its load; the growth per doubling
 * does not (about 2 for linear work, about 4 for quadratic work).
 *
 * The growth is measured over two doublings (size n against 4n) and reported per doubling
 * (the square root): a burst of load that slows one measurement by 1.8× moves a single doubling
 * from 2 to 3.6, but the per-doubling figure over two only from 2 to 2.7.
 *
 * Which clock: wall time is disturbed by every other process on the machine. When the machine is
 * oversubscribed for the whole measurement (a 2-core CI machine running three test runtimes and
 * other packages at once), no sample window is quiet and even the fastest sample is slowed at
 * random: measured here with eight busy loops running, wall-clock ratios of linear readers
 * ranged from 0.6 to 9.3, and CI once failed a bound of 3 at 3.03–3.1. The CPU time a process was
 * given is not disturbed that way (1.86–2.30 under the same load), so tests and the benchmark
 * measure {@link processCpuMilliseconds} in a process of their own.
 */

/** Enough work per sample that timer resolution (100 µs in browsers) and jitter do not matter. */
const minimumSampleMs = 20
const samples = 7

/** A monotonic clock in milliseconds. */
export type Clock = () => number

/** Wall time: what a user waits, but slowed at random by everything else the machine runs. */
export const wallMilliseconds: Clock = () => performance.now()

/**
 * CPU time (user + system) of this whole process so far, in milliseconds: the time the operating
 * system actually ran it, whatever else the machine was doing. Every thread of the process
 * counts (garbage collector and compiler threads are part of the work measured), so it measures
 * one function only in a process that runs nothing else: a child process started for the
 * measurement, not a test runner's worker thread. Node only.
 */
export const processCpuMilliseconds: Clock = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Milliseconds for `repetitions` calls of `run`. */
function timeOf(run: () => void, repetitions: number, now: Clock): number {
  const started = now()
  for (let index = 0; index < repetitions; index++) run()
  return now() - started
}

/**
 * Calls per sample for a sample of at least {@link minimumSampleMs}. Each size gets its own, so
 * the samples of both sizes last about as long: on a loaded machine a long sample is interrupted
 * more surely than a short one, which would inflate the larger size's time.
 */
function calibrated(run: () => void, now: Clock): number {
  let repetitions = 1
  while (timeOf(run, repetitions, now) < minimumSampleMs && repetitions < 1 << 20) repetitions *= 2
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
 * alike. `clock` is {@link wallMilliseconds} unless given.
 */
export function measureDoubling<Input>(
  makeInput: (size: number) => Input,
  run: (input: Input) => void,
  size: number,
  clock: Clock = wallMilliseconds,
): DoublingMeasurement {
  const small = makeInput(size)
  const large = makeInput(4 * size)
  const runSmall = () => run(small)
  const runLarge = () => run(large)
  timeOf(runSmall, 3, clock)
  timeOf(runLarge, 3, clock)
  const smallRepetitions = calibrated(runSmall, clock)
  const largeRepetitions = calibrated(runLarge, clock)
  const smallTimes: number[] = []
  const largeTimes: number[] = []
  for (let sample = 0; sample < samples; sample++) {
    smallTimes.push(timeOf(runSmall, smallRepetitions, clock))
    largeTimes.push(timeOf(runLarge, largeRepetitions, clock))
  }
  const smallMs = fastest(smallTimes) / smallRepetitions
  const largeMs = fastest(largeTimes) / largeRepetitions
  return { smallMs, largeMs, ratio: Math.sqrt(largeMs / smallMs) }
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
