import { IdTokenError, isUsableUrl, type TransportOptions } from '@fhir-auth/core/essentials'
import { idTokenAlgorithms } from '@fhir-auth/core/oidc'
// Read by the SMART issuer binding too, on the request path, where the OIDC code must not load.
import { openIdConfigurationDocument } from '../smart/issuer-binding.js'
import type { OpenIdProvider } from './openid-provider.js'

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
