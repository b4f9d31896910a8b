import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  bearerToken,
  fhirIdPattern,
  sendInsufficientScope,
  sendInvalidToken,
  sendOperationOutcome,
  sendPatient,
} from '../http/fhir-responses.js'
import { allowsRead, splitScopes } from '../smart/smart-scopes.js'
import type { TokenStore } from './token-store.js'

/**
 * `GET {fhirBase}/Patient/{id}`: the protected resource behind the UDAP sandbox, so that
 * sessions (`session.fetch`) can be tested end to end. Only tokens this sandbox issued count;
 * revoked ones (replayed code, reused refresh token) stop at once.
 *
 * - no, unknown, expired or revoked Bearer token → 401 `invalid_token` with a
 *   `WWW-Authenticate: Bearer` challenge (RFC 6750 §3);
 * - a token without a `patient/`, `user/` or `system/` scope that reads Patient → 403
 *   `insufficient_scope`;
 * - otherwise 200 with a small Patient (`application/fhir+json`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1
 */
export function handlePatientRead(
  tokens: TokenStore,
  request: IncomingMessage,
  response: ServerResponse,
  patientId: string,
): void {
  if (!fhirIdPattern.test(patientId)) {
    sendOperationOutcome(response, 404, 'not-found', 'no Patient with that id')
    return
  }
  const value = bearerToken(request)
  const token = value === undefined ? undefined : tokens.activeAccessToken(value)
  if (token === undefined) {
    sendInvalidToken(response)
    return
  }
  if (!allowsRead(splitScopes(token.scope), 'Patient')) {
    sendInsufficientScope(response, 'the token has no scope that reads Patient')
    return
  }
  sendPatient(response, patientId)
}
