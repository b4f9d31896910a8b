import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendJson } from '../http/responses.js'
import { allowsRead, splitScopes } from '../smart/smart-scopes.js'
import type { TokenStore } from './token-store.js'

/** FHIR ids: 1–64 of letters, digits, `-` and `.`. */
const fhirIdPattern = /^[A-Za-z0-9\-.]{1,64}$/

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
    sendOutcome(response, 404, 'not-found', 'no Patient with that id')
    return
  }
  const header = request.headers.authorization ?? ''
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header)
  const token = match?.[1] === undefined ? undefined : tokens.activeAccessToken(match[1])
  if (token === undefined) {
    sendOutcome(response, 401, 'login', 'a valid access token from this server is required', {
      'www-authenticate': 'Bearer realm="fhir", error="invalid_token"',
    })
    return
  }
  const scopes = splitScopes(token.scope)
  if (!allowsRead(scopes, 'Patient')) {
    sendOutcome(response, 403, 'forbidden', 'the token has no scope that reads Patient', {
      'www-authenticate': 'Bearer realm="fhir", error="insufficient_scope"',
    })
    return
  }
  sendJson(
    response,
    200,
    {
      resourceType: 'Patient',
      id: patientId,
      active: true,
      name: [{ family: 'Sandbox', given: ['Pat'] }],
    },
    { 'cache-control': 'no-store' },
    'application/fhir+json',
  )
}

function sendOutcome(
  response: ServerResponse,
  status: number,
  code: string,
  diagnostics: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendJson(
    response,
    status,
    { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, diagnostics }] },
    headers,
    'application/fhir+json',
  )
}
