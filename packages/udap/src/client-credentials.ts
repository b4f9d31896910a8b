import { ConfigurationError } from '@fhir-auth/core/essentials'
import { readOptions } from '@fhir-auth/core/internal'
import { jwtBearerAssertionType } from '@fhir-auth/core/jws'
import {
  type AuthorizationExtensionsInput,
  buildAuthorizationExtensions,
} from './authorization-extensions.js'
import { postUdapTokenRequest, type UdapTokenRequestCommon } from './token-request.js'
import type { TokenResponse } from './token-response.js'
import { isScopeToken } from './uri.js'

/**
 * The `client_assertion_type` of JWT client authentication (RFC 7523 §2.2): `@fhir-auth/core/jws`'s
 * `jwtBearerAssertionType` under the name this package has always exported.
 */
export const jwtBearerClientAssertionType: typeof jwtBearerAssertionType = jwtBearerAssertionType

/** Options of {@link requestUdapClientCredentialsToken}. */
export interface UdapClientCredentialsOptions
  extends UdapTokenRequestCommon,
    AuthorizationExtensionsInput {
  /** The scopes to request; at least one. */
  readonly scopes: readonly string[]
}

/**
 * Requests an access token with the client_credentials grant, authenticated by a UDAP
 * Authentication Token (B2B).
 *
 * Before any request: `tokenEndpoint` must be HTTPS (loopback HTTP only with
 * `allowInsecureLocalhost`), `issuer` non-blank, `scopes` a non-empty array of scope tokens,
 * `b2b` a valid context (see `buildB2bExtension`), `b2bUser` a valid user (see
 * `buildB2bUserExtension`), `extensions` JSON objects by key. Then a form `POST` of `grant_type=
 * client_credentials`, `scope`, `client_assertion_type` (JWT bearer), `client_assertion` and
 * `udap=1`, with no `Authorization` header and no client secret, redirects not followed.
 *
 * @throws ConfigurationError `tokenEndpoint`, `issuer`, `signer`, `scopes`, `extensions`,
 *   `b2b.<field>` or `b2bUser.<field>`.
 * @throws TokenError as `parseUdapTokenResponse` describes, or for a transport failure
 *   (`cause` = `HttpError`). Messages never contain the assertion.
 * @example
 * ```ts
 * const token = await requestUdapClientCredentialsToken({
 *   tokenEndpoint: metadata.tokenEndpoint,
 *   issuer: clientId,
 *   signer,
 *   scopes: ['system/Patient.rs'],
 *   b2b: { organizationId: 'https://example.org/org/42', purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'] },
 * })
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#obtaining-an-access-token
 */
export async function requestUdapClientCredentialsToken(
  input: UdapClientCredentialsOptions,
): Promise<TokenResponse> {
  const options = readOptions(input, 'requestUdapClientCredentialsToken', { required: true })
  return postUdapTokenRequest(options as UdapClientCredentialsOptions, () => ({
    form: { grant_type: 'client_credentials', scope: checkScopes(options.scopes) },
    secrets: [],
    extensions: buildAuthorizationExtensions(options),
  }))
}

function checkScopes(value: unknown): string {
  if (Array.isArray(value) && value.length > 0 && value.every((scope) => isScopeToken(scope))) {
    return value.join(' ')
  }
  throw new ConfigurationError({
    invalidAttribute: 'scopes',
    message:
      'scopes must be a non-empty array of scope tokens (no spaces, quotes or backslashes), e.g. ["system/Patient.rs"]',
  })
}
