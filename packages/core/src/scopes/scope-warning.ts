import type { Logger } from '../logging/logger.js'

/**
 * A warning about scopes, to the caller's logger or else `console.warn`. Logging never decides
 * an outcome: a logger that throws is ignored, since parsing never throws.
 */
export function scopeWarning(
  logger: Logger | undefined,
): (message: string, event: string, count: number) => void {
  return (message, event, count) => {
    try {
      if (logger === undefined) console.warn(`[fhir-auth] ${message}`, { event, count })
      else logger.warn(message, { event, count })
    } catch {
      // A failing logger loses the line, nothing else.
    }
  }
}

/** The first few scopes of a list for a message, each cut short: a huge input stays a short line. */
export function shown(scopes: readonly string[]): string {
  const first = scopes
    .slice(0, 5)
    .map((scope) => (scope.length > 80 ? `${scope.slice(0, 77)}...` : scope))
  const more = scopes.length > first.length ? ` and ${scopes.length - first.length} more` : ''
  return `${first.join(', ')}${more}`
}
