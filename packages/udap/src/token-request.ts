import {
  type Clock,
  type JwsSigner,
  TokenError,
  type TransportOptions,
} from '@fhir-auth/core/essentials'
import { requireNonBlankString, sendFlowRequest, transportOf } from '@fhir-auth/core/internal'
import { requireEndpointUrl } from '@fhir-auth/core/internal/on-demand'
import { jwtBearerAssertionType } from '@fhir-auth/core/jws'
import { createAuthenticationToken } from './authentication-token.js'
import { parseUdapTokenResponse, type TokenResponse } from './token-response.js'

/** What every UDAP token request takes: where, who signs, and the transport settings. */
export interface UdapTokenRequestCommon extends TransportOptions {
  /** The signed `token_endpoint`, exactly as published (it is the assertion's `aud`). */
  readonly tokenEndpoint: string
  /** `iss` and `sub` of the authentication token: the `client_id` (the client URI when unregistered). */
  readonly issuer: string
  /** From `prepareUdapSigner`, with the algorithms of `token_endpoint_auth_signing_alg_values_supported`. */
  readonly signer: JwsSigner
  readonly now?: Clock | undefined
}

/** One grant's part of a token request. */
export interface UdapGrantRequest {
  /** The grant's form members (`grant_type` first). */
  readonly form: Readonly<Record<string, string>>
  /** Form values to keep out of error messages (codes, verifiers, refresh tokens). */
  readonly secrets: readonly string[]
  /** Authorization extension objects for the authentication token (client_credentials only). */
  readonly extensions?: Readonly<Record<string, unknown>> | undefined
}

/**
 * Sends a UDAP token request: the grant's form (made by `grantRequest` once the endpoint and
 * issuer have passed, so their errors come first) plus `client_assertion_type` (JWT bearer), a
 * fresh authentication token as `client_assertion`, and `udap=1`; no `Authorization` header
 * and no client secret, redirects not followed, never retried.
 *
 * @throws ConfigurationError `tokenEndpoint` (not HTTPS, or loopback HTTP without
 *   `allowInsecureLocalhost`), `issuer`, whatever `grantRequest` throws, then `signer`.
 * @throws TokenError for a refusal, an unusable answer or a transport failure (`cause` =
 *   `HttpError`); messages never contain the assertion or the grant's secrets.
 * @see https://hl7.org/fhir/us/udap-security/STU2/consumer.html#obtaining-an-access-token
 * @see https://www.udap.org/udap-jwt-client-auth.html
 * @internal
 */
export async function postUdapTokenRequest(
  options: UdapTokenRequestCommon,
  grantRequest: () => UdapGrantRequest,
): Promise<TokenResponse> {
  const tokenEndpoint = requireEndpointUrl(
    options.tokenEndpoint,
    'tokenEndpoint',
    options.allowInsecureLocalhost,
  )
  const issuer = requireNonBlankString(options.issuer, 'issuer')
  const grant = grantRequest()
  const clientAssertion = await createAuthenticationToken({
    issuer,
    tokenEndpoint,
    signer: options.signer,
    now: options.now,
    extensions: grant.extensions,
  })
  const secrets = [...grant.secrets, clientAssertion]
  const response = await sendFlowRequest(
    {
      method: 'POST',
      url: tokenEndpoint,
      form: {
        ...grant.form,
        client_assertion_type: jwtBearerAssertionType,
        client_assertion: clientAssertion,
        // UDAP: udap=1 tells a server that also does SMART that this is a UDAP request.
        udap: '1',
      },
      ...transportOf(options),
    },
    TokenError,
    'UDAP token request',
    secrets,
  )
  return parseUdapTokenResponse(response, secrets)
}
