import { createPublicKey, type KeyObject, randomUUID } from 'node:crypto'
import { CompactSign, calculateJwkThumbprint, type JWK } from 'jose'
import { toBase64 } from './pki-object.js'

/** ID tokens live 5 minutes: the Tiered OAuth profile asks for short-lived ones. */
export const idTokenLifetimeSeconds = 300

/**
 * The server's RSA key as an ID token signer: RS256 (OIDC Core §15.1), header `kid` (RFC 7638
 * thumbprint, for `jwks_uri` lookup) and `x5c` (the server certificate chain: IG STU2 §7.1.3
 * asks every JWT of the guide for one), published as a JWKS.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDToken
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html#jwt-headers
 */
export class IdTokenSigner {
  readonly kid: string
  readonly jwks: { readonly keys: readonly Readonly<Record<string, unknown>>[] }
  readonly #privateKey: KeyObject
  readonly #x5c: readonly string[]

  private constructor(privateKey: KeyObject, kid: string, publicJwk: JWK, x5c: readonly string[]) {
    this.#privateKey = privateKey
    this.#x5c = x5c
    this.kid = kid
    this.jwks = Object.freeze({
      keys: [Object.freeze({ ...publicJwk, kid, alg: 'RS256', use: 'sig', x5c: [...x5c] })],
    })
  }

  /** A signer for an RSA key and its certificate chain (leaf first, DER). */
  static async create(
    privateKey: KeyObject,
    chainDer: readonly Uint8Array[],
  ): Promise<IdTokenSigner> {
    // RSA keys export to JWK safely (the Node 20 deadlock concerns fresh EC keys).
    const exported = createPublicKey(privateKey).export({ format: 'jwk' })
    const publicJwk: JWK = { kty: 'RSA', n: String(exported.n), e: String(exported.e) }
    const kid = await calculateJwkThumbprint(publicJwk)
    return new IdTokenSigner(privateKey, kid, publicJwk, chainDer.map(toBase64))
  }

  /** Signs `claims` as a compact JWS. */
  sign(claims: Readonly<Record<string, unknown>>): Promise<string> {
    return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.kid, x5c: [...this.#x5c] })
      .sign(this.#privateKey)
  }
}

/** What an ID token says and to whom. */
export interface IdTokenInput {
  readonly issuer: string
  readonly fhirBaseUrl: string
  readonly clientId: string
  readonly user: { readonly sub: string; readonly name?: string; readonly fhirUser?: string }
  readonly scopes: readonly string[]
  readonly nonce: string | undefined
  readonly authTime: number
  readonly now: Date
  /** A hostile variant that falsifies `nonce` or `aud`. */
  readonly falsify: 'nonce' | 'aud' | undefined
}

/**
 * The claims of an ID token (OIDC Core §2; udap.org Tiered OAuth §4.3): `iss`, `sub`, `aud`
 * (the client), `iat`, `exp`, `auth_time`, `jti`, `nonce` when the request had one, `name`
 * with `profile`, `fhirUser` (absolute) with `fhirUser`.
 */
export function idTokenClaims(input: IdTokenInput): Record<string, unknown> {
  const iat = Math.floor(input.now.getTime() / 1000)
  const fhirUser = input.user.fhirUser
  return {
    iss: input.issuer,
    sub: input.user.sub,
    aud: input.falsify === 'aud' ? `${input.clientId}-other` : input.clientId,
    iat,
    exp: iat + idTokenLifetimeSeconds,
    auth_time: input.authTime,
    jti: randomUUID(),
    ...(input.falsify === 'nonce'
      ? { nonce: `${input.nonce ?? 'unrequested'}-other` }
      : input.nonce === undefined
        ? {}
        : { nonce: input.nonce }),
    ...(input.scopes.includes('profile') && input.user.name !== undefined
      ? { name: input.user.name }
      : {}),
    ...(input.scopes.includes('fhirUser') && fhirUser !== undefined
      ? { fhirUser: absoluteFhirUser(fhirUser, input.fhirBaseUrl) }
      : {}),
  }
}

function absoluteFhirUser(fhirUser: string, fhirBaseUrl: string): string {
  return URL.canParse(fhirUser) ? fhirUser : `${fhirBaseUrl}/${fhirUser}`
}
