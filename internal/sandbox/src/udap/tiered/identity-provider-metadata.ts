import type { CachedPathValidator } from '../cached-path-validator.js'
import { subjectAlternativeNameUris } from '../certificate-names.js'
import type { ClientTrustStore } from '../client-trust-store.js'
import { verifyX5cSignedJwt } from '../x5c-signed-jwt.js'
import { fetchJson, OutboundRequestError } from './outbound-fetch.js'

/** An IdP this data holder checked and trusts, with its signed endpoints. */
export interface TrustedIdentityProvider {
  /** The IdP's base URL: `iss` of its metadata and of its ID tokens. */
  readonly issuer: string
  readonly authorizationEndpoint: string
  readonly tokenEndpoint: string
  readonly registrationEndpoint: string
  readonly registrationAlgorithms: readonly string[]
  readonly tokenAlgorithms: readonly string[]
  /** From `{issuer}/.well-known/openid-configuration`. */
  readonly jwksUri: string
  readonly idTokenAlgorithms: readonly string[]
}

/** What checking an IdP needs. */
export interface IdentityProviderCheckContext {
  readonly trust: ClientTrustStore
  readonly pathValidator: CachedPathValidator
  readonly now: () => Date
  readonly toleranceSeconds: number
}

/** The outcome of {@link checkIdentityProvider}. */
export type IdentityProviderCheck =
  | { readonly trusted: true; readonly identityProvider: TrustedIdentityProvider }
  | { readonly trusted: false; readonly description: string }

const yearSeconds = 365 * 86_400

/**
 * Decides whether this data holder trusts the IdP named by `idp` (IG STU2 §6.2; udap.org
 * Tiered OAuth §3.1), with its own code (jose and pkijs), independent of the library:
 * `GET {idp}/.well-known/udap` answers 200 with metadata whose `signed_metadata` is RS256,
 * signed by `x5c[0]`, chains to an IdP anchor with current CRLs, has `iss` = `idp` = a SAN URI
 * of `x5c[0]`, `sub = iss`, `iat` not in the future, `exp` in the future and at most a year
 * after `iat`, a `jti`, and signed authorization, token and registration endpoints (signed
 * values are used); `scopes_supported` contains `openid` and `udap`; `grant_types_supported`
 * contains `authorization_code` (these two as signed, when the signed metadata carries them). Then `{idp}/.well-known/openid-configuration` names the same
 * issuer and a `jwks_uri`.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/user.html#data-holder-authentication-request-to-idp
 */
export async function checkIdentityProvider(
  idp: string,
  context: IdentityProviderCheckContext,
): Promise<IdentityProviderCheck> {
  try {
    return await check(idp, context)
  } catch (error) {
    if (error instanceof OutboundRequestError) return untrusted(error.message)
    throw error
  }
}

async function check(
  idp: string,
  context: IdentityProviderCheckContext,
): Promise<IdentityProviderCheck> {
  const discovery = await fetchJson(`${idp}/.well-known/udap`)
  const metadata = discovery.json
  if (discovery.status !== 200 || metadata === undefined) {
    return untrusted(`${idp}/.well-known/udap answered ${discovery.status} without UDAP metadata`)
  }
  const signed = await verifyX5cSignedJwt(
    typeof metadata.signed_metadata === 'string' ? metadata.signed_metadata : '',
    ['RS256'],
  )
  if (!signed.verified) return untrusted(`the IdP's signed_metadata ${signed.message}`)
  const { jwt } = signed
  const now = context.now()
  const path = await context.pathValidator.validate(
    jwt.chain,
    jwt.chainDer,
    context.trust.current(),
    now,
  )
  if (!path.valid) return untrusted(`the IdP is not trusted: ${path.message}`)
  const claims = jwt.claims
  const leaf = jwt.chain[0]
  const nowSeconds = now.getTime() / 1000
  const claimProblem =
    claims.iss !== idp
      ? 'iss is not the idp base URL'
      : leaf === undefined || !subjectAlternativeNameUris(leaf).includes(idp)
        ? 'iss is not a SAN URI of x5c[0]'
        : claims.sub !== claims.iss
          ? 'sub does not equal iss'
          : typeof claims.iat !== 'number' || claims.iat > nowSeconds + context.toleranceSeconds
            ? 'iat is missing or in the future'
            : typeof claims.exp !== 'number' || claims.exp <= nowSeconds - context.toleranceSeconds
              ? 'exp is missing or passed'
              : claims.exp - claims.iat > yearSeconds
                ? 'exp is more than a year after iat'
                : typeof claims.jti !== 'string' || claims.jti === ''
                  ? 'jti is missing'
                  : undefined
  if (claimProblem !== undefined) return untrusted(`the IdP's signed_metadata: ${claimProblem}`)
  const authorizationEndpoint = claims.authorization_endpoint
  const tokenEndpoint = claims.token_endpoint
  const registrationEndpoint = claims.registration_endpoint
  if (
    typeof authorizationEndpoint !== 'string' ||
    typeof tokenEndpoint !== 'string' ||
    typeof registrationEndpoint !== 'string'
  ) {
    return untrusted(
      "the IdP's signed_metadata lacks a signed authorization, token or registration endpoint",
    )
  }
  // IG STU2 §2.3: a value the signed metadata carries takes precedence over the plain JSON one.
  const signedOrPlain = (name: string): unknown => claims[name] ?? metadata[name]
  const scopes = stringArray(signedOrPlain('scopes_supported'))
  if (!scopes.includes('openid') || !scopes.includes('udap')) {
    return untrusted('the IdP does not list openid and udap in scopes_supported')
  }
  if (!stringArray(signedOrPlain('grant_types_supported')).includes('authorization_code')) {
    return untrusted('the IdP does not support authorization_code')
  }
  const configuration = await fetchJson(`${idp}/.well-known/openid-configuration`)
  const oidc = configuration.json
  if (configuration.status !== 200 || oidc === undefined) {
    return untrusted(`${idp}/.well-known/openid-configuration answered ${configuration.status}`)
  }
  if (oidc.issuer !== idp || typeof oidc.jwks_uri !== 'string') {
    return untrusted("the IdP's openid-configuration names another issuer or no jwks_uri")
  }
  return {
    trusted: true,
    identityProvider: {
      issuer: idp,
      authorizationEndpoint,
      tokenEndpoint,
      registrationEndpoint,
      registrationAlgorithms: stringArray(
        metadata.registration_endpoint_jwt_signing_alg_values_supported,
      ),
      tokenAlgorithms: stringArray(metadata.token_endpoint_auth_signing_alg_values_supported),
      jwksUri: oidc.jwks_uri,
      idTokenAlgorithms: stringArray(oidc.id_token_signing_alg_values_supported),
    },
  }
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string')
    : []
}

function untrusted(description: string): IdentityProviderCheck {
  return { trusted: false, description }
}
