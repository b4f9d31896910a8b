import type { LogFields, Logger } from '@fhir-auth/core'

export interface LogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error'
  readonly message: string
  readonly fields: LogFields | undefined
}

/** A logger that keeps every entry for assertions. */
export function captureLogger(): Logger & { readonly entries: LogEntry[] } {
  const entries: LogEntry[] = []
  const write = (level: LogEntry['level']) => (message: string, fields?: LogFields) => {
    entries.push({ level, message, fields })
  }
  return {
    entries,
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  }
}
