import { ConfigurationError, describeValue } from '../errors/configuration-error.js'
import { type Clock, systemClock } from '../time/clock.js'
import { wrongType } from './wrong-type.js'

/**
 * Returns the caller's clock, or the system clock when none is given.
 *
 * @throws ConfigurationError on `now` when it is not a function.
 * @internal
 */
export function requireClock(clock: unknown): Clock {
  if (clock === undefined) return systemClock
  if (typeof clock === 'function') return clock as Clock
  throw wrongType('now', 'a function returning a Date', clock)
}

/**
 * Returns `value` when it is a valid `Date`.
 *
 * @throws ConfigurationError on `attribute`.
 * @internal
 */
export function requireDate(value: unknown, attribute: string): Date {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value
  throw new ConfigurationError({
    invalidAttribute: attribute,
    invalidValue: describeValue(value),
    message: `${attribute} must give a valid Date`,
  })
}

/**
 * Reads the current time from the caller's clock (default: the system clock).
 *
 * @throws ConfigurationError on `now` when it is not a function returning a valid `Date`.
 * @internal
 */
export function currentTime(clock: Clock | undefined): Date {
  return requireDate(requireClock(clock)(), 'now')
}
