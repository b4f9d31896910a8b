import {
  type FhirAuthError,
  type FhirAuthErrorOptions,
  formUrlEncode,
  HttpError,
  type HttpRequest,
  type HttpResponse,
  type JsonRecord,
  type OAuthErrorFields,
  parseJsonObjectBody,
  parseOAuthErrorBody,
  redactSecrets,
  safeUrl,
  sendRequest,
  tryParseJsonBody,
} from '@fhir-auth/core'

/** `TokenError` or `RegistrationError`: the flow errors that carry an OAuth error body. @internal */
export type FlowErrorClass<E extends FhirAuthError> = new (
  fields: OAuthErrorFields,
  options?: FhirAuthErrorOptions,
) => E

/**
 * Sends a POST and turns a transport failure (network, timeout, abort, redirect, refused URL,
 * oversized body) into the flow's error, with the `HttpError` as `cause`.
 *
 * @param secrets values sent in the request (assertions). A custom `fetch` may quote the body
 *   in the message of the error it throws, which core keeps as the `HttpError`'s cause; those
 *   values are cut out of it.
 * @internal
 */
export async function sendFlowRequest<E extends FhirAuthError>(
  request: HttpRequest,
  ErrorClass: FlowErrorClass<E>,
  label: string,
  secrets: readonly string[],
): Promise<HttpResponse> {
  try {
    return await sendRequest(request)
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    const transportError: unknown = error.cause
    if (transportError instanceof Error) {
      transportError.message = redactRequestSecrets(transportError.message, secrets)
    }
    throw new ErrorClass(
      { message: `${label} failed: ${error.message}`, status: error.status },
      { cause: error },
    )
  }
}

/**
 * The error for an unsuccessful answer: the RFC 6749 §5.2 / RFC 7591 §3.2.2 members when the
 * body has them (UDAP codes such as `invalid_software_statement`,
 * `unapproved_software_statement`, `invalid_client` included), else the status alone. The
 * server's text reaches the message only after the request's secrets are cut out of it.
 *
 * @internal
 */
export function errorFromResponse<E extends FhirAuthError>(
  ErrorClass: FlowErrorClass<E>,
  label: string,
  response: HttpResponse,
  secrets: readonly string[],
): E {
  const oauth = parseOAuthErrorBody(tryParseJsonBody(response))
  const where = `${label} to ${safeUrl(response.url)} failed with HTTP ${response.status}`
  if (oauth?.error === undefined) {
    return new ErrorClass({
      status: response.status,
      message: `${where} and no OAuth error in the body`,
    })
  }
  const errorDescription =
    oauth.errorDescription === undefined
      ? undefined
      : redactRequestSecrets(oauth.errorDescription, secrets)
  return new ErrorClass({
    status: response.status,
    error: redactRequestSecrets(oauth.error, secrets),
    errorDescription,
    errorUri:
      oauth.errorUri === undefined ? undefined : redactRequestSecrets(oauth.errorUri, secrets),
    message: `${where}: ${redactRequestSecrets(oauth.error, secrets)}${errorDescription === undefined ? '' : ` (${errorDescription})`}`,
  })
}

/**
 * A success body as a JSON object, or the flow's error (with the `HttpError` as `cause`).
 *
 * @internal
 */
export function successBody<E extends FhirAuthError>(
  ErrorClass: FlowErrorClass<E>,
  label: string,
  response: HttpResponse,
): JsonRecord {
  try {
    return parseJsonObjectBody(response)
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    throw new ErrorClass(
      { status: response.status, message: `${label}: ${error.message}` },
      { cause: error },
    )
  }
}

/**
 * Cuts request secrets out of a text, as written and in the two URL encodings a server or a
 * `fetch` may quote them in.
 *
 * @internal
 */
export function redactRequestSecrets(text: string, secrets: readonly string[]): string {
  const variants = secrets.flatMap((secret) => [
    formUrlEncode(secret),
    encodeURIComponent(secret),
    secret,
  ])
  return redactSecrets(text, variants)
}

/** The names (never the values) of a body's members, for messages about a missing one. @internal */
export function fieldNames(body: JsonRecord): string {
  const names = Object.keys(body)
  if (names.length === 0) return 'none'
  const shown = names
    .slice(0, 20)
    .map((name) => (name.length > 40 ? `${name.slice(0, 40)}…` : name))
  return shown.join(', ') + (names.length > 20 ? ', …' : '')
}
