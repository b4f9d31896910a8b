import type { CryptoBackend, VerificationAlgorithm } from '../crypto/backend.js'
import { base64UrlDecode } from '../crypto/base64.js'
import type { Jwk } from '../crypto/jwk.js'
import { HttpError } from '../errors/http-error.js'
import { IdTokenError } from '../errors/id-token-error.js'
// Through the entry the backend's `verifySignature` imports, so both load one chunk; the entry
// holds no X.509 reader but the key type one (ADR 0012).
import { type DecodedJws, decodeCompactJws } from '../verification.js'
import type { JsonWebKeySet } from './json-web-key-set.js'
import { publicJwkToSpki } from './public-jwk-spki.js'

/** The claims of an ID token that passed validation; other claims (`fhirUser`…) as sent, unchecked. */
export interface IdTokenClaims {
  readonly iss: string
  readonly sub: string
  readonly aud: string | readonly string[]
  readonly exp: number
  readonly iat: number
  readonly nonce?: string
  readonly azp?: string
  readonly auth_time?: number
  readonly [claim: string]: unknown
}

/** What an ID token is checked against. */
export interface IdTokenExpectations {
  /** The issuer discovered for the server (exact string comparison). */
  readonly issuer: string
  readonly clientId: string
  /** The algorithms this server may use (see {@link idTokenAlgorithms}). */
  readonly algorithms: readonly VerificationAlgorithm[]
  readonly keys: JsonWebKeySet
  readonly crypto: CryptoBackend
  readonly now: Date
  /** The `nonce` sent in the authorization request, when one was. */
  readonly nonce?: string | undefined
  /** The `sub` of the ID token this one renews (refresh, OIDC Core §12.2). */
  readonly subject?: string | undefined
  /** Refuse an authentication older than this (`auth_time` required then). */
  readonly maxAgeSeconds?: number | undefined
  /** Clock skew allowed on `exp`, `iat`, `nbf` and `auth_time`; default 60 s. */
  readonly leewaySeconds?: number | undefined
}

const asymmetric: readonly VerificationAlgorithm[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
]

/**
 * The algorithms an ID token may be signed with: the server's
 * `id_token_signing_alg_values_supported` limited to asymmetric JWS algorithms, or RS256 when
 * it advertises none. `none` and HMAC are never allowed, whatever the server says (an HMAC
 * "signature" keyed by the client secret proves nothing about the server to a public client).
 *
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderMetadata OIDC Discovery §3
 */
export function idTokenAlgorithms(advertised: unknown): VerificationAlgorithm[] {
  if (!Array.isArray(advertised)) return ['RS256']
  return asymmetric.filter((algorithm) => advertised.includes(algorithm))
}

/**
 * Validates an ID token as OpenID Connect Core §3.1.3.7 says, in this order: structure, `alg`
 * (pinned to the allowed list, never trusted from the header alone), the key (by `kid`, of the
 * algorithm's type), the signature through the crypto backend, then `iss`, `aud`, `azp`, `exp`,
 * `iat`, `nbf`, `nonce`, `sub` and `auth_time`.
 *
 * @throws IdTokenError with the `reason` of the first rule broken.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation OIDC Core §3.1.3.7
 */
export async function verifyIdToken(
  idToken: unknown,
  expected: IdTokenExpectations,
): Promise<IdTokenClaims> {
  const jws = decode(idToken)
  const algorithm = checkAlgorithm(jws.header, expected.algorithms)
  const kid = typeof jws.header.kid === 'string' ? jws.header.kid : undefined
  const keys = (await expected.keys.candidates(kid)).filter((key) => fits(key, algorithm))
  if (keys.length === 0) {
    throw new IdTokenError('alg', `no key in the server's key set can verify ${algorithm}`)
  }
  if (!(await verifiesWithAny(jws, algorithm, keys, expected.crypto))) {
    throw new IdTokenError('signature', 'the ID token signature does not verify')
  }
  return checkClaims(jws.payload, expected)
}

function decode(idToken: unknown): DecodedJws {
  let jws: DecodedJws
  try {
    jws = decodeCompactJws(idToken)
  } catch {
    // An unsecured JWT ("alg":"none", empty signature) is refused for what it is.
    if (typeof idToken === 'string' && unsecuredHeader(idToken)) {
      throw new IdTokenError('alg', 'the ID token is unsigned ("alg":"none")')
    }
    throw new IdTokenError('malformed', 'the ID token is not a compact JWS of JSON objects')
  }
  // RFC 7515 §4.1.11: extensions we do not understand must make the token invalid.
  if ('crit' in jws.header) {
    throw new IdTokenError('malformed', 'the ID token header has "crit" extensions')
  }
  return jws
}

function unsecuredHeader(token: string): boolean {
  try {
    const header = JSON.parse(new TextDecoder().decode(base64UrlDecode(token.split('.')[0] ?? '')))
    return typeof header === 'object' && header !== null && header.alg === 'none'
  } catch {
    return false
  }
}

function checkAlgorithm(
  header: Record<string, unknown>,
  allowed: readonly VerificationAlgorithm[],
): VerificationAlgorithm {
  const alg = header.alg
  const match = allowed.find((algorithm) => algorithm === alg)
  if (match !== undefined) return match
  const shown = typeof alg === 'string' ? JSON.stringify(alg.slice(0, 16)) : 'missing'
  throw new IdTokenError(
    'alg',
    `the ID token algorithm ${shown} is not allowed (allowed: ${allowed.join(', ') || 'none'})`,
  )
}

/** True when the JWK is the key type (and curve) the algorithm needs, and not pinned elsewhere. */
function fits(key: Jwk, algorithm: VerificationAlgorithm): boolean {
  if (key.alg !== undefined && key.alg !== algorithm) return false
  if (algorithm.startsWith('ES')) {
    const curve = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[algorithm as 'ES256']
    return key.kty === 'EC' && key.crv === curve
  }
  return key.kty === 'RSA'
}

async function verifiesWithAny(
  jws: DecodedJws,
  algorithm: VerificationAlgorithm,
  keys: readonly Jwk[],
  crypto: CryptoBackend,
): Promise<boolean> {
  for (const key of keys) {
    const publicKeySpki = publicJwkToSpki(key)
    if (publicKeySpki === undefined) continue
    const check = { algorithm, publicKeySpki, data: jws.signingInput, signature: jws.signature }
    // A backend that throws reads as "does not verify" (fail closed), except when its code could
    // not load (`lazyImport`): that is no verdict on the token, and the caller must see it.
    const verified = await crypto.verifySignature(check).catch((error: unknown) => {
      if (HttpError.isInstance(error)) throw error
      return false
    })
    if (verified) return true
  }
  return false
}

function checkClaims(
  claims: Record<string, unknown>,
  expected: IdTokenExpectations,
): IdTokenClaims {
  const now = expected.now.getTime() / 1000
  const leeway = expected.leewaySeconds ?? 60
  if (claims.iss !== expected.issuer) {
    throw new IdTokenError('iss', `the ID token issuer is not ${expected.issuer}`)
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw new IdTokenError('malformed', 'the ID token has no sub')
  }
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : claims.aud
  if (!Array.isArray(audiences) || !audiences.includes(expected.clientId)) {
    throw new IdTokenError('aud', 'the ID token audience does not include this client')
  }
  // §3.1.3.7 items 4–5: several audiences need an azp naming us; an azp present must name us.
  if ((audiences.length > 1 || claims.azp !== undefined) && claims.azp !== expected.clientId) {
    throw new IdTokenError('azp', 'the ID token azp is not this client')
  }
  if (typeof claims.exp !== 'number' || claims.exp + leeway <= now) {
    throw new IdTokenError('exp', 'the ID token has expired (or has no numeric exp)')
  }
  if (typeof claims.iat !== 'number' || claims.iat - leeway > now) {
    throw new IdTokenError('iat', 'the ID token was issued in the future (or has no numeric iat)')
  }
  checkNotBefore(claims.nbf, now, leeway)
  if (expected.nonce !== undefined && claims.nonce !== expected.nonce) {
    throw new IdTokenError('nonce', 'the ID token nonce is not the one sent')
  }
  if (expected.subject !== undefined && claims.sub !== expected.subject) {
    throw new IdTokenError('sub', 'the refreshed ID token is for another subject')
  }
  if (expected.maxAgeSeconds !== undefined) {
    const authTime = claims.auth_time
    if (typeof authTime !== 'number' || authTime + expected.maxAgeSeconds + leeway < now) {
      throw new IdTokenError('auth_time', 'the authentication is older than maxAgeSeconds')
    }
  }
  return claims as IdTokenClaims
}

/**
 * `nbf`, when present: a token not yet valid (beyond the leeway) is refused like one issued in
 * the future. OIDC Core does not list it, but an ID token is a JWT and RFC 7519 says a JWT
 * MUST NOT be accepted before its `nbf`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.5 RFC 7519 §4.1.5
 */
function checkNotBefore(nbf: unknown, now: number, leeway: number): void {
  if (nbf === undefined) return
  if (typeof nbf !== 'number' || !Number.isFinite(nbf)) {
    throw new IdTokenError('malformed', 'the ID token nbf is not a number')
  }
  if (nbf - leeway > now) {
    throw new IdTokenError('nbf', 'the ID token is not valid yet (nbf is in the future)')
  }
}
