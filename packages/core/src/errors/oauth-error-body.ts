import { clip } from './oauth-error.js'

// A file apart from the error classes: only code that reads a response parses an error body, and
// the classes load before an app does anything (ADR 0012).

/** The error members of an OAuth error body, each kept only when it is a string. */
export interface OAuthErrorBody {
  readonly error?: string
  readonly errorDescription?: string
  readonly errorUri?: string
}

/**
 * Reads the RFC 6749 §5.2 members from a parsed response body. Anything that is not a JSON
 * object with a string `error` gives `undefined`; over-long strings are cut so a hostile
 * server cannot flood error messages and logs.
 *
 * @param redact applied to each member *before* it is cut: a secret the server echoed is
 *   replaced whole, so no prefix of it survives the cut (ADR 0002: redaction before
 *   truncation). Callers that hold the request's secrets pass their redaction here.
 */
export function parseOAuthErrorBody(
  body: unknown,
  redact: (text: string) => string = (text) => text,
): OAuthErrorBody | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined
  const record = body as Record<string, unknown>
  if (typeof record.error !== 'string' || record.error === '') return undefined
  const field = (text: string) => clip(redact(text))
  const result: { error: string; errorDescription?: string; errorUri?: string } = {
    error: field(record.error),
  }
  if (typeof record.error_description === 'string') {
    result.errorDescription = field(record.error_description)
  }
  if (typeof record.error_uri === 'string') result.errorUri = field(record.error_uri)
  return result
}
