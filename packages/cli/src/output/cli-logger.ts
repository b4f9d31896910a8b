import { type LogFields, type Logger, redactFields } from '@fhir-auth/core'
import { type Output, oneLine } from '../output.js'

/**
 * The library's logger inside the CLI. Warnings (a non-compliant server, a deprecation) are
 * always shown as `warning: …` lines on stderr. Info, debug and error lines appear only with
 * `--verbose`: the library logs a failure at error level just before throwing it, and the CLI
 * already reports the thrown error once. Fields are shown redacted (core's `redactFields`),
 * and every line passes the run's secret redactor.
 */
export function createCliLogger(output: Output): Logger {
  const verboseLine =
    (level: 'debug' | 'info' | 'error') =>
    (message: string, fields?: LogFields): void => {
      output.detail(`[${level}] ${oneLine(message)}${renderFields(fields)}`)
    }
  return {
    debug: verboseLine('debug'),
    info: verboseLine('info'),
    warn: (message: string) => output.warning(message),
    error: verboseLine('error'),
  }
}

function renderFields(fields: LogFields | undefined): string {
  if (fields === undefined || Object.keys(fields).length === 0) return ''
  try {
    return ` ${JSON.stringify(redactFields(fields))}`
  } catch {
    // Fields that cannot be serialised are diagnostics only; the message is enough.
    return ''
  }
}
