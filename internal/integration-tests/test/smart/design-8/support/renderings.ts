/**
 * Every way an app might show a value (an error, a session): its string, its message, its
 * `util.inspect` and its JSON, joined, so one `not.toContain` says that none of them holds a
 * secret (DESIGN §8: tokens redacted; store values never in errors).
 */
import { inspect } from 'node:util'

export function renderingsOf(value: unknown): string {
  const message = value instanceof Error ? value.message : ''
  return `${String(value)} ${message} ${inspect(value, { depth: 10 })} ${JSON.stringify(value)}`
}
