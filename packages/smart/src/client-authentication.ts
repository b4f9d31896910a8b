import {
  type BasicAuthEncoding,
  type Clock,
  ConfigurationError,
  type JwsSigner,
} from '@fhir-auth/core/essentials'
import { lazyImport, requireNonBlankString } from '@fhir-auth/core/internal'

/**
 * How a SMART client authenticates at the token endpoint, one variant per client type.
 *
 * - `public`: no authentication; `client_id` goes in the form body;
 * - `confidential_symmetric`: HTTP Basic with the client id and secret (RFC 6749 §2.3.1);
 * - `confidential_asymmetric`: `private_key_jwt`, a fresh signed assertion per request.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-symmetric.html
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html
 */
export type ClientAuthentication =
  | { readonly type: 'public'; readonly clientId: string }
  | {
      readonly type: 'confidential_symmetric'
      readonly clientId: string
      readonly clientSecret: string
      /**
       * How id and secret are written in the Basic credentials: `'form-urlencoded'` (default,
       * RFC 6749 §2.3.1) or `'raw'` (`base64(id:secret)`, as the SMART IG example shows).
       */
      readonly basicAuthEncoding?: BasicAuthEncoding | undefined
    }
  | {
      readonly type: 'confidential_asymmetric'
      readonly clientId: string
      readonly signer: JwsSigner
      /** Becomes the assertion's `jku` header; must be the JWKS URL registered for the client. */
      readonly jwksUri?: string | undefined
    }

/** The form members and headers that authenticate one token request. @internal */
export interface AuthenticationParts {
  readonly form: Record<string, string>
  readonly headers: Record<string, string>
  /** Values to keep out of error messages built from the server's answer. */
  readonly secrets: string[]
}

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
