import {
  basicAuthorization,
  ConfigurationError,
  formEncodingChanges,
  TokenError,
} from '@fhir-auth/core/essentials'
import { requireBasicAuthEncoding, requireNonBlankString } from '@fhir-auth/core/internal'
import type { AuthenticationParts, ClientAuthentication } from './client-authentication-types.js'

/**
 * A confidential symmetric client's request parts: HTTP Basic with the client id and secret
 * (RFC 6749 §2.3.1), written as `basicAuthEncoding` says.
 *
 * @throws ConfigurationError on `clientSecret`, `basicAuthEncoding`, or a `clientId` with `:`
 *   under `'raw'` encoding.
 * @internal
 */
export function basicAuthentication(
  clientId: string,
  authentication: Extract<ClientAuthentication, { type: 'confidential_symmetric' }>,
): AuthenticationParts {
  const clientSecret = requireNonBlankString(authentication.clientSecret, 'clientSecret')
  const encoding = requireBasicAuthEncoding(authentication.basicAuthEncoding)
  // RFC 7617 §2: a user-id containing ':' cannot be sent unencoded.
  if (encoding === 'raw' && clientId.includes(':')) {
    throw new ConfigurationError({
      invalidAttribute: 'clientId',
      invalidValue: clientId,
      message:
        "clientId contains ':', which basicAuthEncoding 'raw' cannot carry (RFC 7617 §2); use 'form-urlencoded'",
    })
  }
  const authorization = basicAuthorization(clientId, clientSecret, encoding)
  // The credentials in the header are secret too, encoded or not.
  return { form: {}, headers: { authorization }, secrets: [clientSecret, authorization.slice(6)] }
}

/**
 * A symmetric client's `invalid_client` with an id or secret that form encoding changes: the
 * same error, its message saying so and naming the other `basicAuthEncoding` (RFC 6749 §2.3.1).
 * Servers disagree on Basic credentials: RFC 6749 form-encodes id and secret first, the SMART
 * IG's example does not. The message names no character: they are the secret's.
 *
 * @internal
 */
export function withBasicEncodingHint(
  error: unknown,
  authentication: ClientAuthentication,
): unknown {
  if (
    !(error instanceof TokenError) ||
    error.error !== 'invalid_client' ||
    authentication.type !== 'confidential_symmetric' ||
    !(
      formEncodingChanges(authentication.clientId) ||
      formEncodingChanges(authentication.clientSecret)
    )
  ) {
    return error
  }
  const current = authentication.basicAuthEncoding ?? 'form-urlencoded'
  const other = current === 'raw' ? 'form-urlencoded' : 'raw'
  return new TokenError(
    {
      status: error.status,
      error: error.error,
      errorDescription: error.errorDescription,
      errorUri: error.errorUri,
      message: `${error.message}. The client id or secret has characters that form encoding changes, and servers differ on Basic credentials (${current === 'raw' ? 'sent as they are' : 'sent form-urlencoded, RFC 6749 §2.3.1'}): if the credentials are right, set basicAuthEncoding to '${other}'`,
    },
    error.cause === undefined ? undefined : { cause: error.cause },
  )
}
