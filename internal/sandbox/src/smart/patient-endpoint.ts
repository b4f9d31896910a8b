/// <reference path="./oidc-provider.d.ts" />
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Provider, StoredToken } from 'oidc-provider'
import { sendJson } from '../http/responses.js'
import { allowsRead, splitScopes } from './smart-scopes.js'

/** Settings of the protected Patient read. */
export interface PatientEndpointSettings {
  readonly provider: Provider
  readonly fhirBaseUrl: string
}

/** FHIR ids: 1–64 of letters, digits, `-` and `.`. */
const fhirIdPattern = /^[A-Za-z0-9\-.]{1,64}$/

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
    sendJson(
      response,
      401,
      operationOutcome('login', 'a valid access token from this server is required'),
      {
        'www-authenticate': 'Bearer realm="fhir", error="invalid_token"',
      },
      'application/fhir+json',
    )
    return
  }
  const scopes = splitScopes(token.scope)
  const patientInContext = token.extra?.patient
  const mayRead =
    allowsRead(scopes, 'Patient', 'system') ||
    allowsRead(scopes, 'Patient', 'user') ||
    (allowsRead(scopes, 'Patient', 'patient') && patientInContext === patientId)
  if (!mayRead) {
    sendJson(
      response,
      403,
      operationOutcome('forbidden', 'the access token does not allow reading this Patient'),
      {
        'www-authenticate': 'Bearer realm="fhir", error="insufficient_scope"',
      },
      'application/fhir+json',
    )
    return
  }
  sendJson(
    response,
    200,
    {
      resourceType: 'Patient',
      id: patientId,
      active: true,
      name: [{ family: 'Sandbox', given: [patientId] }],
    },
    {},
    'application/fhir+json',
  )
}

function bearerToken(request: IncomingMessage): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(request.headers.authorization ?? '')
  return match?.[1]
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

function operationOutcome(code: string, diagnostics: string): Record<string, unknown> {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code, diagnostics }],
  }
}

/** Sends an OperationOutcome with the given status. */
export function sendOperationOutcome(
  response: ServerResponse,
  status: number,
  code: string,
  diagnostics: string,
): void {
  sendJson(response, status, operationOutcome(code, diagnostics), {}, 'application/fhir+json')
}
