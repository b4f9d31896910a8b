import type { Clock } from '@fhir-auth/core/essentials'
import { wrongType } from '@fhir-auth/core/internal/checks'

/**
 * The caller's clock, checked at every reading: one that gives anything but a valid `Date`
 * (`now: Date.now` gives a number) or throws is a `ConfigurationError` on `now` where it is read,
 * rather than a `TypeError` deep inside an operation, or an Invalid Date under which no token
 * ever expires and no launch can be completed. The clock's own error is dropped: it could quote
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
    } catch {
      // Reported below as a clock that gave nothing.
    }
    if (time instanceof Date && !Number.isNaN(time.getTime())) return time
    throw wrongType(
      'now',
      'a function returning a Date',
      time,
      true,
      time instanceof Date ? 'an Invalid Date' : undefined,
    )
  }
}
