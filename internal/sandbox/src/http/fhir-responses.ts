import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendJson } from './responses.js'

/** FHIR ids: 1–64 of letters, digits, `-` and `.`. */
export const fhirIdPattern = /^[A-Za-z0-9\-.]{1,64}$/

/** The Bearer token of a request (RFC 6750 §2.1 `b64token`), if it carries one. */
export function bearerToken(request: IncomingMessage): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(request.headers.authorization ?? '')
  return match?.[1]
}

/** Sends an OperationOutcome with one error issue, the given status and extra headers. */
export function sendOperationOutcome(
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

/** 401 with the RFC 6750 §3 challenge: no token, or one this server does not accept. */
export function sendInvalidToken(response: ServerResponse): void {
  sendOperationOutcome(
    response,
    401,
    'login',
    'a valid access token from this server is required',
    {
      'www-authenticate': 'Bearer realm="fhir", error="invalid_token"',
    },
  )
}

/** 403 `insufficient_scope` (RFC 6750 §3.1): a valid token that may not read this. */
export function sendInsufficientScope(response: ServerResponse, diagnostics: string): void {
  sendOperationOutcome(response, 403, 'forbidden', diagnostics, {
    'www-authenticate': 'Bearer realm="fhir", error="insufficient_scope"',
  })
}

/** 200 with the sandboxes' small synthetic Patient. */
export function sendPatient(response: ServerResponse, patientId: string): void {
  sendJson(
    response,
    200,
    {
      resourceType: 'Patient',
      id: patientId,
      active: true,
      name: [{ family: 'Sandbox', given: [patientId] }],
    },
    { 'cache-control': 'no-store' },
    'application/fhir+json',
  )
}
