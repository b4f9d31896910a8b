/// <reference path="./oidc-provider.d.ts" />
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Provider, StoredToken } from 'oidc-provider'
import {
  bearerToken,
  fhirIdPattern,
  sendInsufficientScope,
  sendInvalidToken,
  sendOperationOutcome,
  sendPatient,
} from '../http/fhir-responses.js'
import { allowsRead, splitScopes } from './smart-scopes.js'

/** Settings of the protected Patient read. */
export interface PatientEndpointSettings {
  readonly provider: Provider
  readonly fhirBaseUrl: string
}

/**
 * `GET {fhirBase}/Patient/{id}`: a resource server that trusts only tokens this sandbox
 * issued, looked up in the provider's store (so revoked tokens — after a replayed code or a
 * reused refresh token — stop working at once).
 *
 * - no, unknown, expired or revoked token, or a token for another audience → 401
 *   `invalid_token` with a `WWW-Authenticate: Bearer` challenge;
 * - a valid token without a scope that reads Patient, or a `patient/` token whose patient
 *   context is another patient → 403 `insufficient_scope` (RFC 6750 §3.1);
 * - otherwise 200 with a small synthetic Patient (`application/fhir+json`).
 *
 * `user/` and `system/` read scopes may read any patient; `patient/` scopes only the patient
 * in the token's launch context.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3
 */
export async function handlePatientRead(
  settings: PatientEndpointSettings,
  request: IncomingMessage,
  response: ServerResponse,
  patientId: string,
): Promise<void> {
  if (!fhirIdPattern.test(patientId)) {
    sendOperationOutcome(response, 404, 'not-found', 'no Patient with that id')
    return
  }
  const token = await findToken(settings, bearerToken(request))
  if (token === undefined) {
    sendInvalidToken(response)
    return
  }
  const scopes = splitScopes(token.scope)
  const patientInContext = token.extra?.patient
  const mayRead =
    allowsRead(scopes, 'Patient', 'system') ||
    allowsRead(scopes, 'Patient', 'user') ||
    (allowsRead(scopes, 'Patient', 'patient') && patientInContext === patientId)
  if (!mayRead) {
    sendInsufficientScope(response, 'the access token does not allow reading this Patient')
    return
  }
  sendPatient(response, patientId)
}

async function findToken(
  settings: PatientEndpointSettings,
  value: string | undefined,
): Promise<StoredToken | undefined> {
  if (value === undefined) return undefined
  const { AccessToken, ClientCredentials } = settings.provider
  const token = (await AccessToken.find(value)) ?? (await ClientCredentials.find(value))
  if (token === undefined || token.isExpired) return undefined
  const audiences = typeof token.aud === 'string' ? [token.aud] : (token.aud ?? [])
  return audiences.includes(settings.fhirBaseUrl) ? token : undefined
}
