import type { AuthorizationUrlOptions, Client, RequestAccessTokenOptions } from '@fhir-auth/client'
import type { AuthorizeResult, RecordedRequest, SmartSandbox } from '@fhir-auth/sandbox'

/** What an app keeps between the redirect and the callback, plus where the user agent ended. */
export interface CompletedAuthorization {
  readonly code: string
  readonly codeVerifier: string
  readonly state: string
  readonly result: AuthorizeResult
}

/**
 * Runs `client.authorizationUrl(options)` through the sandbox's headless user agent (a GET
 * redirect, or an authorize-POST form when `options.method` is `'post'`) and returns the code.
 *
 * Fails, naming the server's error, when no code comes back or the returned `state` is not
 * the one the library generated: the app's CSRF check.
 */
export async function authorizeWithClient(
  client: Client,
  sandbox: SmartSandbox,
  options: AuthorizationUrlOptions = {},
): Promise<CompletedAuthorization> {
  const request = await client.authorizationUrl(options)
  const result = await sandbox.authorize(
    request.params === undefined
      ? { url: request.authUrl }
      : { endpoint: request.authUrl, params: request.params },
  )
  if (result.code === undefined) {
    throw new Error(
      `authorization failed: ${result.error ?? 'no code'} (${result.errorDescription ?? 'no description'})`,
    )
  }
  if (result.state !== request.state) {
    throw new Error('authorization response state differs from the state the library generated')
  }
  return { code: result.code, codeVerifier: request.codeVerifier, state: request.state, result }
}

/**
 * What `requestAccessToken` takes of a completed authorization: the code and its verifier (the
 * other members are no options of it, and unknown options are refused, ADR 0008).
 */
export function codeExchange(authorization: CompletedAuthorization): RequestAccessTokenOptions {
  return { code: authorization.code, codeVerifier: authorization.codeVerifier }
}

/** The requests the sandbox received at one of its endpoints, oldest first. */
export function requestsTo(sandbox: SmartSandbox, endpoint: string): RecordedRequest[] {
  const path = new URL(endpoint).pathname
  return sandbox.requests.filter((request) => request.path === path)
}

/** The last request the sandbox received at `endpoint`; fails when there was none. */
export function lastRequestTo(sandbox: SmartSandbox, endpoint: string): RecordedRequest {
  const last = requestsTo(sandbox, endpoint).at(-1)
  if (last === undefined) throw new Error(`the sandbox received no request at ${endpoint}`)
  return last
}

/** How many discovery requests the sandbox has received. */
export function discoveryRequestCount(sandbox: SmartSandbox): number {
  return requestsTo(sandbox, sandbox.endpoints.discovery).length
}

/** `GET {fhirBaseUrl}/Patient/{id}` with a bearer token; the HTTP status. */
export async function readPatientStatus(
  sandbox: SmartSandbox,
  patientId: string,
  accessToken: unknown,
): Promise<number> {
  const response = await fetch(`${sandbox.fhirBaseUrl}/Patient/${encodeURIComponent(patientId)}`, {
    headers: { authorization: `Bearer ${String(accessToken)}` },
  })
  await response.arrayBuffer()
  return response.status
}

export { rejectionOf } from '@fhir-auth/test-utils/failure'
