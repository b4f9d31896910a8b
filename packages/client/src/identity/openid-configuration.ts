import { IdTokenError, isUsableUrl, type TransportOptions } from '@fhir-auth/core/essentials'
import { fetchDiscoveryDocument } from '@fhir-auth/core/internal'
import { idTokenAlgorithms } from '@fhir-auth/core/oidc'
import type { OpenIdProvider } from '../protocol-implementation.js'

/**
 * Reads an OpenID provider's `{issuer}/.well-known/openid-configuration`: its `issuer` (which
 * must be the one asked for), `jwks_uri` (HTTPS, or loopback HTTP under the policy) and ID
 * token algorithms. Used when SMART discovery names no `jwks_uri`, and for UDAP servers and
 * Tiered OAuth identity providers.
 *
 * @throws IdTokenError `jwks` when the document cannot be fetched or names no usable key set,
 *   `iss` when it is another issuer's.
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfig OIDC Discovery §4
 */
export async function openIdConfiguration(
  issuer: string,
  transport: TransportOptions,
): Promise<OpenIdProvider> {
  const document = await openIdConfigurationDocument(issuer, transport)
  const jwksUri = document.jwks_uri
  if (
    typeof jwksUri !== 'string' ||
    !isUsableUrl(jwksUri, transport.allowInsecureLocalhost ?? false)
  ) {
    throw new IdTokenError('jwks', `the OpenID configuration of ${issuer} has no usable jwks_uri`)
  }
  return {
    issuer,
    jwksUri,
    algorithms: idTokenAlgorithms(document.id_token_signing_alg_values_supported),
  }
}

/**
 * The `openid-configuration` document of `issuer`, as served, once its `issuer` member is
 * exactly the one asked for (OIDC Discovery §4.3: otherwise the document MUST NOT be used).
 *
 * @throws IdTokenError `jwks` when the document cannot be fetched, `iss` when it is another
 *   issuer's.
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfigurationValidation OIDC Discovery §4.3
 */
export async function openIdConfigurationDocument(
  issuer: string,
  transport: TransportOptions,
): Promise<Record<string, unknown>> {
  const url = openIdConfigurationUrl(issuer)
  let document: Record<string, unknown>
  try {
    document = await fetchDiscoveryDocument({ url, label: 'OpenID discovery', transport })
  } catch (error) {
    throw new IdTokenError('jwks', `the OpenID configuration of ${issuer} could not be read`, {
      cause: error,
    })
  }
  if (document.issuer !== issuer) {
    throw new IdTokenError('iss', `the OpenID configuration at ${url} is for another issuer`)
  }
  return document
}

/** `{issuer}/.well-known/openid-configuration` (a trailing `/` of the issuer is dropped first). */
export function openIdConfigurationUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
}
