import type { Clock, Logger } from '@fhir-auth/core/essentials'
import { wrongType } from '@fhir-auth/core/internal/checks'

/**
 * The caller's logger, made unable to change an operation's outcome: a method that throws, is
 * missing, or returns a promise that rejects (an async logger) is ignored. Logging happens in the
 * middle of operations — a warning about a token response member comes after the server issued
 * the tokens and rotated the refresh token — so a logger that failed the operation there would
 * lose tokens the server has already replaced. Each method is looked up at each call, as loggers
 * that change level replace their methods (pino does).
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/client/README.md#options
 * @internal
 */
export function failSafeLogger(logger: Logger): Logger {
  const write =
    (level: keyof Logger) =>
    (...line: Parameters<Logger['info']>): void => {
      try {
        // The logger's own promise is observed, so that its rejection is never unhandled.
        ;(logger[level] as (...line: unknown[]) => PromiseLike<unknown> | undefined)
          .apply(logger, line)
          ?.then?.(undefined, () => {})
      } catch {
        // Nowhere to report it: the logger is what failed.
      }
    }
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
}

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
