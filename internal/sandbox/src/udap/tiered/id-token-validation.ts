import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose'
import { parseJsonObject } from '../../http/body-format.js'
import type { TrustedIdentityProvider } from './identity-provider-metadata.js'
import { fetchJson, OutboundRequestError } from './outbound-fetch.js'

/** What an IdP's ID token is checked against. */
export interface IdTokenExpectations {
  readonly identityProvider: TrustedIdentityProvider
  /** This data holder's `client_id` at the IdP: the required `aud`. */
  readonly clientId: string
  /** The `nonce` this data holder sent. */
  readonly nonce: string
  readonly now: Date
  readonly toleranceSeconds: number
}

/** The outcome of {@link validateIdentityProviderIdToken}. */
export type IdTokenValidation =
  | { readonly valid: true; readonly claims: Readonly<Record<string, unknown>> }
  | { readonly valid: false; readonly description: string }

const asymmetricAlgorithms = [
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
 * Validates the IdP's ID token as the data holder must (IG STU2 §6.2, OIDC Core §3.1.3.7,
 * udap.org Tiered OAuth §4.3) — the sandbox's own implementation with jose, not the library's:
 * a JWS with an asymmetric `alg` the IdP advertises (RS256 when it advertises none); the key
 * with the header's `kid` from the IdP's `jwks_uri`; `iss` = the IdP; `aud` contains the
 * data holder's client id (and `azp` is it when `aud` has several); `exp` in the future and
 * `iat` not in the future (with the clock tolerance); `nonce` equal to the one sent; a `sub`.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export async function validateIdentityProviderIdToken(
  idToken: string,
  expected: IdTokenExpectations,
): Promise<IdTokenValidation> {
  let header: Record<string, unknown>
  try {
    header = decodeProtectedHeader(idToken)
  } catch {
    return invalid('the ID token is not a compact JWS')
  }
  const advertised = expected.identityProvider.idTokenAlgorithms
  const allowed = (advertised.length === 0 ? ['RS256'] : advertised).filter((alg) =>
    asymmetricAlgorithms.includes(alg),
  )
  const alg = header.alg
  if (typeof alg !== 'string' || !allowed.includes(alg)) {
    return invalid(`the ID token alg ${JSON.stringify(alg ?? null)} is not allowed`)
  }
  const key = await keyFor(expected.identityProvider.jwksUri, header.kid, alg)
  if (typeof key === 'string') return invalid(key)
  let claims: Record<string, unknown> | undefined
  try {
    const { payload } = await compactVerify(idToken, key, { algorithms: [alg] })
    claims = parseJsonObject(new TextDecoder().decode(payload))
  } catch {
    return invalid('the ID token signature does not verify with the IdP key')
  }
  if (claims === undefined) return invalid('the ID token payload is not a JSON object')
  const problem = claimProblem(claims, expected)
  return problem === undefined ? { valid: true, claims } : invalid(`the ID token ${problem}`)
}

function claimProblem(
  claims: Readonly<Record<string, unknown>>,
  expected: IdTokenExpectations,
): string | undefined {
  const nowSeconds = expected.now.getTime() / 1000
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  if (claims.iss !== expected.identityProvider.issuer) return 'iss is not the IdP'
  if (!audiences.includes(expected.clientId))
    return "aud does not name this data holder's client_id"
  if (audiences.length > 1 && claims.azp !== expected.clientId) return 'azp is not this data holder'
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds - expected.toleranceSeconds) {
    return 'has expired (or has no exp)'
  }
  if (typeof claims.iat !== 'number' || claims.iat > nowSeconds + expected.toleranceSeconds) {
    return 'iat is missing or in the future'
  }
  if (claims.nonce !== expected.nonce) return 'nonce does not match the one sent'
  if (typeof claims.sub !== 'string' || claims.sub === '') return 'has no sub'
  return undefined
}

async function keyFor(
  jwksUri: string,
  kid: unknown,
  alg: string,
): Promise<Awaited<ReturnType<typeof importJWK>> | string> {
  let keys: unknown
  try {
    keys = (await fetchJson(jwksUri)).json?.keys
  } catch (error) {
    if (error instanceof OutboundRequestError)
      return `the IdP's JWKS is unreachable: ${error.message}`
    throw error
  }
  const candidates = (Array.isArray(keys) ? keys : []).filter(
    (jwk): jwk is JWK =>
      typeof jwk === 'object' && jwk !== null && (kid === undefined || (jwk as JWK).kid === kid),
  )
  if (candidates.length !== 1) return `the IdP's JWKS has no single key with kid ${String(kid)}`
  try {
    return await importJWK(candidates[0] as JWK, alg)
  } catch {
    return "the IdP's key does not fit the ID token alg"
  }
}

function invalid(description: string): IdTokenValidation {
  return { valid: false, description }
}
