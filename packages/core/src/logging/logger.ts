/**
 * Structured context attached to a log line. Never put secrets here; see
 * `redactFields` from `@fhir-auth/core`.
 */
export type LogFields = Readonly<Record<string, unknown>>

/**
 * Where the library writes its logs. `console` fits as it is; pino and winston fit with a
 * one-line adapter. The library logs info at the start of each operation, warn for
 * non-compliant server responses and deprecations, and error for discovery failures.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#logging
 */
export interface Logger {
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
  debug?(message: string, fields?: LogFields): void
}

const prefix = '[fhir-auth]'

/** Levels from most to least verbose; a logger shows its level and everything to the right. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

const rank: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 }

/**
 * A logger writing to the console from `level` upwards (default `warn`: warnings and errors
 * shown, info and debug dropped).
 */
export function consoleLogger(level: LogLevel = 'warn'): Logger {
  const shows = (candidate: LogLevel) => rank[candidate] >= rank[level]
  const write =
    (candidate: Exclude<LogLevel, 'silent'>) =>
    (message: string, fields?: LogFields): void => {
      if (!shows(candidate)) return
      const line = `${prefix} ${message}`
      if (fields === undefined) console[candidate](line)
      else console[candidate](line, fields)
    }
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
}

/** The default logger: warnings and errors on the console, info and debug dropped. */
export const defaultLogger: Logger = /* @__PURE__ */ consoleLogger('warn')

/** A logger that drops everything. */
export const silentLogger: Logger = /* @__PURE__ */ consoleLogger('silent')
