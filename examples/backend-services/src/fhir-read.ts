/**
 * A FHIR read with a bearer token. Not part of fhir-auth: the library gets you the token, and
 * any HTTP or FHIR client can use it from there.
 */

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

/** What {@link readFhirResource} needs. */
export interface FhirReadRequest {
  /** The FHIR base URL, e.g. `https://ehr.example.org/fhir`. */
  readonly fhirBaseUrl: string
  /** The resource path relative to the base, e.g. `Patient/123`. */
  readonly path: string
  readonly accessToken: string
  /** Default 10 seconds: a hung FHIR server must not hang the script. */
  readonly timeoutMs?: number
}

/**
 * `GET {fhirBaseUrl}/{path}` with `Authorization: Bearer`, returning the parsed resource.
 *
 * @throws FhirReadError with the status for a non-2xx answer (the token never appears in it).
 * @see https://hl7.org/fhir/R4/http.html#read
 */
export async function readFhirResource(request: FhirReadRequest): Promise<Record<string, unknown>> {
  // Resolve against the base *with* a trailing slash, or `new URL` would drop its last segment.
  const url = new URL(request.path, `${request.fhirBaseUrl.replace(/\/+$/, '')}/`)
  let response: Response
  try {
    response = await fetch(url, {
      headers: {
        accept: 'application/fhir+json',
        authorization: `Bearer ${request.accessToken}`,
      },
      signal: AbortSignal.timeout(request.timeoutMs ?? 10_000),
    })
  } catch (error) {
    throw new FhirReadError(`GET ${url.pathname} failed before any response`, undefined, {
      cause: error,
    })
  }
  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok) {
    throw new FhirReadError(
      `GET ${url.pathname} answered ${response.status}${describeOutcome(body)}`,
      response.status,
    )
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new FhirReadError(`GET ${url.pathname} did not return a JSON resource`, response.status)
  }
  return body as Record<string, unknown>
}

/** The first OperationOutcome diagnostics, so the message says *why* the server refused. */
function describeOutcome(body: unknown): string {
  const issues = (body as { issue?: { diagnostics?: unknown }[] } | undefined)?.issue
  const diagnostics = Array.isArray(issues) ? issues[0]?.diagnostics : undefined
  return typeof diagnostics === 'string' ? `: ${diagnostics}` : ''
}
