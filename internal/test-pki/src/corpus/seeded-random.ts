/**
 * A small deterministic pseudo-random generator (mulberry32 over an FNV-1a hash of the seed):
 * the same seed gives the same sequence on every machine, so a generated corpus is the same
 * corpus on every run. Not for anything secret.
 */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number
  /** True with probability `probability`. */
  chance(probability: number): boolean
  /** One element, uniformly. */
  pick<Value>(values: readonly Value[]): Value
  /** One element, with the given weights (any positive scale). */
  weighted<Value>(entries: readonly (readonly [Value, number])[]): Value
  /** A positive integer below 2^52, as a bigint (serial numbers). */
  serial(): bigint
}

/** A {@link SeededRandom} for `seed`. */
export function seededRandom(seed: string): SeededRandom {
  let state = 0x811c9dc5
  for (let index = 0; index < seed.length; index++) {
    state ^= seed.charCodeAt(index)
    state = Math.imul(state, 0x01000193) >>> 0
  }
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = state
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
  const pick = <Value>(values: readonly Value[]): Value => {
    const value = values[Math.floor(next() * values.length)]
    if (value === undefined) throw new RangeError('pick from an empty list')
    return value
  }
  return {
    next,
    chance: (probability) => next() < probability,
    pick,
    weighted: <Value>(entries: readonly (readonly [Value, number])[]): Value => {
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0)
      let point = next() * total
      for (const [value, weight] of entries) {
        point -= weight
        if (point < 0) return value
      }
      return pick(entries.map(([value]) => value))
    },
    serial: () =>
      BigInt(Math.floor(next() * 2 ** 20)) * 2n ** 32n + BigInt(Math.floor(next() * 2 ** 32)) + 1n,
  }
}
