import { expiresInSeconds } from '@fhir-auth/core/internal'

/** A backend access token as the cache keeps it (in the store, as JSON). */
export interface CachedToken {
  readonly accessToken: string
  readonly tokenType: string
  readonly scope: string | undefined
  /** When it was requested, epoch milliseconds by the client's clock. */
  readonly obtainedAt: number
  /** Epoch milliseconds by the client's clock; `undefined` when the server gave no lifetime. */
  readonly expiresAt: number | undefined
}

/** The token response members the cache reads. */
export interface TokenResponseLike {
  readonly access_token: string
  readonly [member: string]: unknown
}

/**
 * The cache's record of a token response. `expiresAt` counts from `requestedAt` (when the
 * request was sent), so the token is never thought younger than it is.
 */
export function cachedTokenOf(response: TokenResponseLike, requestedAt: number): CachedToken {
  const lifetime = expiresInSeconds(response.expires_in)
  return {
    accessToken: response.access_token,
    tokenType: typeof response.token_type === 'string' ? response.token_type : 'Bearer',
    scope: typeof response.scope === 'string' ? response.scope : undefined,
    obtainedAt: requestedAt,
    expiresAt: lifetime === undefined ? undefined : requestedAt + lifetime * 1000,
  }
}

/**
 * Whether `token` is valid for `minValiditySeconds` more at `now` (ADR 0010: cached until
 * `expiresAt − minValiditySeconds`). A token without a lifetime is never fresh: it is used once —
 * and so is one whose whole lifetime is shorter than the margin: the callers that shared its
 * request get it, and the next call asks for a new one rather than take a token with less time
 * left than it asked for.
 */
export function isFresh(
  token: CachedToken | undefined,
  minValiditySeconds: number,
  now: number,
): token is CachedToken {
  if (token?.expiresAt === undefined) return false
  return token.expiresAt - minValiditySeconds * 1000 > now
}

/** Text a token may be sent as in an `Authorization` header: no controls, no outer spaces. */
const headerSafeToken = /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u

/**
 * A stored record read back, or `undefined` for anything that is not one the cache wrote: not
 * JSON, members missing or of the wrong type, a lifetime that ends before it begins, or token
 * text that could not go into a header. A shared store is outside this process's control, so
 * what it holds is checked like any other input.
 */
export function parseCachedToken(text: string): CachedToken | undefined {
  let value: Partial<Record<keyof CachedToken, unknown>>
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const { accessToken, obtainedAt, expiresAt, tokenType, scope } = value
  if (
    typeof accessToken !== 'string' ||
    !headerSafeToken.test(accessToken) ||
    typeof obtainedAt !== 'number' ||
    typeof expiresAt !== 'number' ||
    !(expiresAt > obtainedAt)
  )
    return undefined
  return {
    accessToken,
    obtainedAt,
    expiresAt,
    tokenType: typeof tokenType === 'string' ? tokenType : 'Bearer',
    scope: typeof scope === 'string' ? scope : undefined,
  }
}
