/**
 * The current time, injectable so expiry logic is testable without fake timers.
 *
 * @example
 * ```ts
 * new Client(config, { now: () => new Date('2030-01-01T00:00:00Z') })
 * ```
 */
export type Clock = () => Date

/** The real clock. */
export const systemClock: Clock = () => new Date()
