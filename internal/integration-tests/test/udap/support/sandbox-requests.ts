/**
 * Reads what the sandbox received: the software statements and authentication tokens the
 * library sent, as the server saw them.
 */
import type { RecordedRequest, UdapRequestCounts, UdapSandbox } from '@fhir-auth/sandbox'

/** The requests the sandbox received at one path since `since` (an index into `requests`). */
export function requestsTo(sandbox: UdapSandbox, path: string, since = 0): RecordedRequest[] {
  return sandbox.requests.slice(since).filter((request) => request.path === path)
}

/** The JSON body of a registration request. */
export function registrationBody(request: RecordedRequest): Readonly<Record<string, unknown>> {
  const body = request.json
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new Error(`the registration request at ${request.path} has no JSON object body`)
  }
  return body as Readonly<Record<string, unknown>>
}

/** The software statement of a registration request. */
export function softwareStatementOf(request: RecordedRequest): string {
  const statement = registrationBody(request).software_statement
  if (typeof statement !== 'string')
    throw new Error('the registration request has no software_statement')
  return statement
}

/** The `client_assertion` (UDAP authentication token) of a token request. */
export function clientAssertionOf(request: RecordedRequest): string {
  const assertion = request.form?.client_assertion
  if (assertion === undefined) throw new Error('the token request has no client_assertion')
  return assertion
}

/** A copy of the request counts, to compare before and after an operation. */
export function countsOf(sandbox: UdapSandbox): UdapRequestCounts {
  return { ...sandbox.requestCounts }
}
