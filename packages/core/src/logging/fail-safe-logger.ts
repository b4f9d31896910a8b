import type { Logger } from './logger.js'

/**
 * The caller's logger, made unable to change an operation's outcome: a method that throws, is
 * missing, or returns a promise that rejects (an async logger) is ignored. Logging happens in the
 * middle of operations — a warning about a token response member comes after the server issued
 * the tokens and rotated the refresh token — so a logger that failed the operation there would
 * lose tokens the server has already replaced. Each method is looked up at each call, as loggers
 * that change level replace their methods (pino does).
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/errors-and-logging.md#logging
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
