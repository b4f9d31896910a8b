/**
 * A FHIR read through the session: `session.fetch` adds the Bearer token (refreshed first when
 * it is about to expire) and sends it only under the FHIR base URL.
 */
import type { Session } from '@fhir-auth/client'

/** A FHIR request that did not answer 2xx with a JSON resource. */
export class FhirReadError extends Error {
  override readonly name = 'FhirReadError'
  /** The HTTP status. */
  readonly status: number

  constructor(message: string, status: number) {
    super(message)
    this.status = status
  }
}

/**
 * `GET {fhirBaseUrl}/{path}` with the session's token, returning the parsed resource.
 *
 * @param path the resource path relative to the FHIR base URL, e.g. `Patient/123`.
 * @throws FhirReadError with the status for a non-2xx answer (the token never appears in it);
 *   the session's errors (`TokenError` when it can no longer refresh, `HttpError` when the
 *   request cannot be sent) as they are.
 * @see https://hl7.org/fhir/R4/http.html#read
 */
export async function readFhirResource(
  session: Session,
  path: string,
): Promise<Record<string, unknown>> {
  const response = await session.fetch(path, {
    headers: { accept: 'application/fhir+json' },
    // A hung FHIR server must not hang the page.
    signal: AbortSignal.timeout(10_000),
  })
  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok) {
    throw new FhirReadError(
      `GET ${path} answered ${response.status}${describeOutcome(body)}`,
      response.status,
    )
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new FhirReadError(`GET ${path} did not return a JSON resource`, response.status)
  }
  return body as Record<string, unknown>
}

/** The first OperationOutcome diagnostics, so the message says *why* the server refused. */
function describeOutcome(body: unknown): string {
  const issues = (body as { issue?: { diagnostics?: unknown }[] } | undefined)?.issue
  const diagnostics = Array.isArray(issues) ? issues[0]?.diagnostics : undefined
  return typeof diagnostics === 'string' ? `: ${diagnostics}` : ''
}
