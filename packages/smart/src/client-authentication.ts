import { type Clock, ConfigurationError } from '@fhir-auth/core/essentials'
import { lazyImport, requireNonBlankString } from '@fhir-auth/core/internal'
import type { AuthenticationParts, ClientAuthentication } from './client-authentication-types.js'

/**
 * Turns a {@link ClientAuthentication} into request parts.
 *
 * @throws ConfigurationError on `clientType`, `clientId`, `clientSecret`, `signer`, `kid` or
 *   `jwtAlgorithm`; CryptoError when the signer fails.
 * @internal
 */
export async function authenticateClient(
  authentication: ClientAuthentication,
  tokenEndpoint: string,
  now: Clock | undefined,
): Promise<AuthenticationParts> {
  if (typeof authentication !== 'object' || authentication === null) {
    throw new ConfigurationError({
      invalidAttribute: 'clientAuthentication',
      message: 'clientAuthentication is required',
    })
  }
  const clientId = requireNonBlankString(authentication.clientId, 'clientId')
  const { type } = authentication
  if (type === 'public') return { form: { client_id: clientId }, headers: {}, secrets: [] }
  if (type === 'confidential_symmetric') {
    const { basicAuthentication } = await loadSymmetricAuthentication()
    return basicAuthentication(clientId, authentication)
  }
  if (type === 'confidential_asymmetric') {
    const { createClientAssertion, jwtBearerAssertionType } = await loadClientAssertion()
    const assertion = await createClientAssertion({
      clientId,
      tokenEndpoint,
      signer: authentication.signer,
      jwksUri: authentication.jwksUri,
      now,
    })
    return {
      form: { client_assertion_type: jwtBearerAssertionType, client_assertion: assertion },
      headers: {},
      secrets: [assertion],
    }
  }
  throw new ConfigurationError({
    invalidAttribute: 'clientType',
    invalidValue: type,
    validValues: ['public', 'confidential_symmetric', 'confidential_asymmetric'],
  })
}

/**
 * The assertion code, loaded on demand: public and symmetric clients (most browser apps) never
 * carry JWS code.
 *
 * @internal
 */
export const loadClientAssertion = /* @__PURE__ */ lazyImport(() => import('./client-assertion.js'))

/**
 * HTTP Basic credentials and the encoding hint on `invalid_client`, loaded on demand: public
 * and asymmetric clients (browser apps) never carry them.
 *
 * @internal
 */
export const loadSymmetricAuthentication = /* @__PURE__ */ lazyImport(
  () => import('./symmetric-authentication.js'),
)
