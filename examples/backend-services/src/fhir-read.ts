/**
 * A FHIR read with the service's tokens: `tokens.fetch` adds `Authorization: Bearer` (only for
 * URLs under the FHIR base URL) and renews the token once if the server answers 401.
 */
import { type BackendTokens, FhirAuthError } from '@fhir-auth/client'

/** A FHIR request that did not answer 2xx with a JSON resource. */
export class FhirReadError extends Error {
  override readonly name = 'FhirReadError'
  /** The HTTP status, or `undefined` when the request itself failed (network, timeout). */
  readonly status: number | undefined

  constructor(message: string, status: number | undefined, options?: ErrorOptions) {
    super(message, options)
    this.status = status
  }
}

/**
 * `GET {fhirBaseUrl}/{path}` with the service's token, returning the parsed resource.
 *
 * @param path relative to the FHIR base URL, e.g. `Patient/123`.
 * @throws FhirReadError with the status for a non-2xx answer (the token never appears in it);
 *   the library's own errors (DiscoveryError, TokenError) when no token could be had.
 * @see https://hl7.org/fhir/R4/http.html#read
 */
export async function readFhirResource(
  tokens: BackendTokens,
  path: string,
  timeoutMs = 10_000,
): Promise<Record<string, unknown>> {
  let response: Response
  try {
    response = await tokens.fetch(path, {
      headers: { accept: 'application/fhir+json' },
      // A hung FHIR server must not hang the service.
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    // The library's own errors (no token could be had, a URL outside the base) as they are.
    if (FhirAuthError.isFhirAuthError(error)) throw error
    throw new FhirReadError(`GET ${path} failed before any response`, undefined, { cause: error })
  }
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
