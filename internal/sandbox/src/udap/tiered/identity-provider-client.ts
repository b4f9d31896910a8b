import { randomUUID } from 'node:crypto'
import { CompactSign } from 'jose'
import type { SigningMaterial } from '../community-pki.js'
import { toBase64 } from '../pki-object.js'
import { jwtBearerAssertionType } from '../token-endpoint.js'
import type { TrustedIdentityProvider } from './identity-provider-metadata.js'
import { fetchJson, OutboundRequestError } from './outbound-fetch.js'

/** Who this data holder is when it acts as a UDAP client of an IdP. */
export interface DataHolderIdentity {
  /** The client URI: `iss` of its software statements, a SAN URI of its certificate. */
  readonly clientUri: string
  /** Its certificate (`x5c`, leaf first) and RSA key: it signs RS256. */
  readonly material: SigningMaterial
  /** The redirect URI it registers and uses at IdPs. */
  readonly redirectUri: string
  readonly now: () => Date
}

/** The outcome of a request to the IdP. */
export type IdentityProviderResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly description: string }

/** The scopes a data holder asks an IdP for (IG STU2 §6.2: at least `openid` and `udap`). */
export const tieredOAuthScopes = 'openid udap'
const algorithm = 'RS256'

/**
 * Registers this data holder with the IdP by UDAP DCR (IG STU2 §3) as an authorization_code
 * client with scope `openid udap`, its redirect URI and an https logo; the software
 * statement is RS256 (which every UDAP server SHALL support) and must be listed by the IdP.
 *
 * @returns the `client_id` the IdP issued.
 * @see https://hl7.org/fhir/us/udap-security/STU2/user.html
 */
export async function registerWithIdentityProvider(
  idp: TrustedIdentityProvider,
  identity: DataHolderIdentity,
): Promise<IdentityProviderResult<string>> {
  if (!idp.registrationAlgorithms.includes(algorithm)) {
    return failed('the IdP does not accept RS256 software statements')
  }
  const statement = await sign(
    {
      ...clientJwtClaims(identity.clientUri, idp.registrationEndpoint, identity.now),
      client_name: 'fhir-auth UDAP sandbox (data holder)',
      contacts: ['mailto:sandbox@fhir-auth.example'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: [identity.redirectUri],
      logo_uri: 'https://fhir-auth.example/sandbox-logo.png',
      scope: tieredOAuthScopes,
      token_endpoint_auth_method: 'private_key_jwt',
    },
    identity.material,
  )
  const answer = await request(idp.registrationEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ software_statement: statement, udap: '1' }),
  })
  if (!answer.ok) return answer
  const { status, json } = answer.value
  if ((status !== 200 && status !== 201) || typeof json?.client_id !== 'string') {
    return failed(`the IdP refused the registration (${status} ${String(json?.error ?? '')})`)
  }
  return { ok: true, value: json.client_id }
}

/** The parts of an IdP token response the data holder reads. */
export interface IdentityProviderTokens {
  readonly idToken: string | undefined
}

/**
 * Exchanges the IdP's code with a UDAP authentication token (IG STU2 §6.2: "SHALL utilize the
 * JWT-based authentication process"): RS256 with `x5c`, `iss = sub =` its client id at the
 * IdP, `aud` = the IdP's token endpoint, 300 s, a fresh `jti`, no `extensions`; form
 * `grant_type=authorization_code, code, redirect_uri, code_verifier, client_assertion_type,
 * client_assertion, udap=1`, no `Authorization` header.
 */
export async function exchangeIdentityProviderCode(
  idp: TrustedIdentityProvider,
  identity: DataHolderIdentity,
  exchange: { readonly clientId: string; readonly code: string; readonly codeVerifier: string },
): Promise<IdentityProviderResult<IdentityProviderTokens>> {
  if (!idp.tokenAlgorithms.includes(algorithm)) {
    return failed('the IdP does not accept RS256 authentication tokens')
  }
  const assertion = await sign(
    clientJwtClaims(exchange.clientId, idp.tokenEndpoint, identity.now),
    identity.material,
  )
  const answer = await request(idp.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: exchange.code,
      redirect_uri: identity.redirectUri,
      code_verifier: exchange.codeVerifier,
      client_assertion_type: jwtBearerAssertionType,
      client_assertion: assertion,
      udap: '1',
    }).toString(),
  })
  if (!answer.ok) return answer
  const { status, json } = answer.value
  if (status !== 200 || json === undefined) {
    return failed(`the IdP's token endpoint answered ${status} ${String(json?.error ?? '')}`)
  }
  return {
    ok: true,
    value: { idToken: typeof json.id_token === 'string' ? json.id_token : undefined },
  }
}

async function request(
  url: string,
  init: RequestInit,
): Promise<IdentityProviderResult<Awaited<ReturnType<typeof fetchJson>>>> {
  try {
    return { ok: true, value: await fetchJson(url, init) }
  } catch (error) {
    if (error instanceof OutboundRequestError) return failed(error.message)
    throw error
  }
}

function sign(claims: Record<string, unknown>, material: SigningMaterial): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: algorithm, x5c: material.chainDer.map(toBase64) })
    .sign(material.certificate.keyPair.privateKey)
}

/** `iss = sub`, `aud`, `iat`, `exp = iat + 300` (IG STU2 maximum), a fresh `jti`. */
function clientJwtClaims(
  issuer: string,
  audience: string,
  now: () => Date,
): Record<string, unknown> {
  const iat = Math.floor(now().getTime() / 1000)
  return { iss: issuer, sub: issuer, aud: audience, iat, exp: iat + 300, jti: randomUUID() }
}

function failed<T>(description: string): IdentityProviderResult<T> {
  return { ok: false, description }
}
