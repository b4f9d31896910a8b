// A file apart from the clock: only code that writes JWT claims needs it, and the clock loads
// before an app does anything (ADR 0012).

/** Whole seconds since the Unix epoch, as JWT `iat`/`exp` claims use (RFC 7519 NumericDate). */
export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000)
}
