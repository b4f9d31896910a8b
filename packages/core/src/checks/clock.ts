import { ConfigurationError, describeValue } from '../errors/configuration-error.js'
import { type Clock, systemClock } from '../time/clock.js'
import { describeKind } from './describe-kind.js'
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

/**
 * The caller's clock, checked at every reading: a clock that gives anything but a valid `Date`
 * (`now: Date.now` gives a number) or throws is a `ConfigurationError` on `now` where it is read,
 * rather than a `TypeError` deep inside an operation, or an Invalid Date under which no token
 * ever expires and no launch can be completed. The clock's own error is not kept: it could quote
 * anything.
 *
 * @throws ConfigurationError on `now`, when the returned clock is read.
 * @internal
 */
export function checkedClock(clock: Clock): Clock {
  return () => {
    let time: unknown
    try {
      time = clock()
    } catch (error) {
      throw new ConfigurationError({
        invalidAttribute: 'now',
        message: `now must return a valid Date; it threw ${describeKind(error)}`,
      })
    }
    return requireDate(time, 'now')
  }
}
