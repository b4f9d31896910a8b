import { inspect } from 'node:util'
import type { LogFields, Logger } from '@fhir-auth/core'

/** The levels a fhir-auth {@link Logger} writes at. */
export type CapturedLevel = 'debug' | 'info' | 'warn' | 'error'

/** One call the library made on the logger, as it made it. */
export interface CapturedLogEntry {
  readonly level: CapturedLevel
  readonly message: string
  readonly fields: LogFields | undefined
}

/** A {@link Logger} that keeps every call, for tests that assert on logs or scan them. */
export interface CapturingLogger extends Logger {
  /** Every call so far, oldest first (a snapshot). */
  readonly entries: readonly CapturedLogEntry[]
  /** The messages written at one level, oldest first. */
  messages(level: CapturedLevel): readonly string[]
  /**
   * Every entry rendered the ways a real logger could render it: the message, then the fields
   * as JSON and through `util.inspect`, so a secret hidden in a nested field is still seen.
   */
  renderedLines(): readonly string[]
  /** Forgets every entry. */
  clear(): void
}

/**
 * Creates a logger that records every level, `debug` and `info` included, so a test sees what
 * the library would write with the most verbose logger a user can configure.
 *
 * @example
 * ```ts
 * const logger = createCapturingLogger()
 * const client = new Client(config, { logger })
 * await client.requestBackendToken()
 * expect(logger.messages('warn')).toHaveLength(1)
 * ```
 */
export function createCapturingLogger(): CapturingLogger {
  const entries: CapturedLogEntry[] = []
  const record =
    (level: CapturedLevel) =>
    (message: string, fields?: LogFields): void => {
      entries.push({ level, message, fields })
    }
  return {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    get entries() {
      return [...entries]
    },
    messages: (level) =>
      entries.filter((entry) => entry.level === level).map((entry) => entry.message),
    renderedLines: () => entries.flatMap(renderEntry),
    clear: () => {
      entries.length = 0
    },
  }
}

function renderEntry(entry: CapturedLogEntry): string[] {
  const prefix = `${entry.level}: ${String(entry.message)}`
  if (entry.fields === undefined) return [prefix]
  return [
    prefix,
    `${prefix} ${safeJson(entry.fields)}`,
    `${prefix} ${inspect(entry.fields, { depth: Number.POSITIVE_INFINITY })}`,
  ]
}

/** `JSON.stringify` that reports, rather than throws on, values it cannot serialise. */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch (error) {
    return `[not serialisable: ${error instanceof Error ? error.name : typeof error}]`
  }
}
