import type { CaseOutcome } from './typed-outcome.js'

/**
 * Counts how the cases of a property ended, by outcome and error class. A property whose cases
 * all end the same way tests less than it seems (a generator that never gets past the first
 * check); tests assert that both outcomes occurred.
 */
export class OutcomeTally {
  #successes = 0
  readonly #errors = new Map<string, number>()

  /** Records one outcome and returns it. */
  record(outcome: CaseOutcome): CaseOutcome {
    if (outcome.kind === 'success') this.#successes++
    else this.#errors.set(outcome.error.name, (this.#errors.get(outcome.error.name) ?? 0) + 1)
    return outcome
  }

  get successes(): number {
    return this.#successes
  }

  get typedErrors(): number {
    return [...this.#errors.values()].reduce((sum, count) => sum + count, 0)
  }

  /** e.g. `12 successes, DiscoveryError 80, HttpError 3`. */
  summary(): string {
    const errors = [...this.#errors.entries()].map(([name, count]) => `${name} ${count}`)
    return [`${this.#successes} successes`, ...errors].join(', ')
  }
}
