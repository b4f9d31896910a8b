import {
  AuthorizationError,
  ConfigurationError,
  FhirAuthError,
  StoreError,
} from '@fhir-auth/client'
import { plainText } from './responses.js'

/** An OAuth `error` code (RFC 6749 §4.1.2.1) plain enough to name in a response body. */
const plainErrorCode = /^[A-Za-z0-9_.-]{1,64}$/

/**
 * The response for an error a launch or callback ended with: the cause named by its class and
 * OAuth error code only. Error messages are not copied: they may quote what a server sent.
 *
 * - `AuthorizationError` (the callback carried `error`, or failed the `state`, `iss` or `code`
 *   checks): `400` naming its `error` code;
 * - `ConfigurationError` on `iss` (no client answers to the launch's `iss`): `400`; any other
 *   `ConfigurationError` (the app's own setup): `500`;
 * - `StoreError`: `503` (the store did not answer; try again);
 * - any other fhir-auth error (the EHR's discovery, token or ID token failed): `502`;
 * - anything else: `500`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1 RFC 6749 §4.1.2.1 (error response)
 */
export function failureResponse(error: unknown, setCookies: readonly string[] = []): Response {
  if (AuthorizationError.isInstance(error)) {
    const code = plainErrorCode.test(error.error) ? error.error : 'invalid_error_code'
    return plainText(400, `Sign-in failed: ${code}`, {}, setCookies)
  }
  if (ConfigurationError.isInstance(error)) {
    return error.invalidAttribute === 'iss'
      ? plainText(400, 'Unknown iss: this app is not registered with that EHR', {}, setCookies)
      : plainText(500, 'The app is misconfigured (ConfigurationError)', {}, setCookies)
  }
  if (StoreError.isInstance(error)) {
    return plainText(503, 'Sign-in is unavailable (StoreError); try again', {}, setCookies)
  }
  if (FhirAuthError.isFhirAuthError(error)) {
    return plainText(502, `The EHR's answer was refused (${error.name})`, {}, setCookies)
  }
  return plainText(500, 'Internal error', {}, setCookies)
}
