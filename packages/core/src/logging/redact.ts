import { redacted } from './redacted.js'

// A file apart: `ClientConfig` and `TokenSet` (loaded before an app does anything) need the
// placeholder only, not this file's redaction rules (ADR 0012).
export { redacted } from './redacted.js'

/**
 * Names whose values are secrets in OAuth, SMART and UDAP messages: tokens, codes, verifiers,
 * assertions, secrets, keys and passwords. Matched case-insensitively on whole names.
 */
const sensitiveNames = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'codeverifier',
  'client_secret',
  'clientsecret',
  'client_assertion',
  'assertion',
  'software_statement',
  'registration_access_token',
  'authorization',
  'password',
  'private_key',
  'privatekey',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'state',
  'token',
  'd',
  'p',
  'q',
  'dp',
  'dq',
  'qi',
])

/** True for a field or parameter name whose value must never be logged. */
export function isSensitiveName(name: string): boolean {
  return sensitiveNames.has(name.toLowerCase())
}

/**
 * A URL safe to log: user info removed and the value of every query parameter and fragment
 * replaced (authorization redirects carry `code` and `state`; the rest is rarely worth the risk).
 */
export function redactUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return redacted
  }
  parsed.username = ''
  parsed.password = ''
  const names = [...new Set(parsed.searchParams.keys())]
  const query = names.map((name) => `${encodeURIComponent(name)}=${redacted}`).join('&')
  return `${parsed.origin}${parsed.pathname}${query ? `?${query}` : ''}${parsed.hash ? '#[REDACTED]' : ''}`
}

const maxDepth = 8

/**
 * A copy of `value` safe to log: members with sensitive names (see {@link isSensitiveName})
 * replaced by `[REDACTED]`, compact JWTs anywhere replaced, deep or cyclic structures cut.
 */
export function redactFields(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return looksLikeJwt(value) ? redacted : value
  if (typeof value !== 'object' || value === null) return value
  if (depth >= maxDepth) return '[…]'
  if (Array.isArray(value)) return value.map((item) => redactFields(item, depth + 1))
  const copy: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(value)) {
    copy[name] =
      isSensitiveName(name) && member !== undefined && member !== null
        ? redacted
        : redactFields(member, depth + 1)
  }
  return copy
}

// A JOSE header is a JSON object, so its base64url form starts with `eyJ` (`{"`); dotted names
// such as log event ids (`udap.discovery.started`) are not JWTs.
const jwtPattern = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

/** True for a string shaped like a compact JWS/JWT (three base64url parts). */
export function looksLikeJwt(value: string): boolean {
  return jwtPattern.test(value)
}

/**
 * Replaces every occurrence of the given secret strings in a text. For messages built from
 * input that might contain a secret (for example a server's `error_description` echoing a code).
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) result = result.split(secret).join(redacted)
  }
  return result
}
