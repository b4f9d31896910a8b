import type { FhirAuthError, FhirAuthErrorOptions } from '../errors/fhir-auth-error.js'
import { HttpError } from '../errors/http-error.js'
import { describeOAuthError, type OAuthErrorFields } from '../errors/oauth-error.js'
import { parseOAuthErrorBody } from '../errors/oauth-error-body.js'
import { looksLikeJwt, redactSecrets } from '../logging/redact.js'
import { formUrlEncode } from './encoding.js'
import { type JsonRecord, parseJsonObjectBody, tryParseJsonBody } from './json.js'
import { type HttpRequest, type HttpResponse, sendRequest } from './request.js'
import { safeUrl } from './safe-url.js'

/** `TokenError` or `RegistrationError`: the flow errors that carry an OAuth error body. */
export type FlowErrorClass<E extends FhirAuthError> = new (
  fields: OAuthErrorFields,
  options?: FhirAuthErrorOptions,
) => E

/**
 * Sends a request and turns a transport failure (network, timeout, abort, redirect, refused
 * URL, oversized body) into the flow's error, keeping the `HttpError` as `cause` and its status
 * when there was a response.
 *
 * @param secrets values sent in the request. A custom `fetch` may put the request body in the
 *   message of the error it throws, which core keeps as the `HttpError`'s cause; those values
 *   (in every form {@link redactRequestSecrets} knows) are cut out of it.
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
    redactErrorText(error.cause, secrets)
    throw new ErrorClass(
      { message: `${label} failed: ${error.message}`, status: error.status },
      { cause: error },
    )
  }
}

/**
 * The error for a non-2xx answer: the RFC 6749 §5.2 / RFC 7591 §3.2.2 members when the body
 * has them, else the status alone. The server's text reaches the message only after the
 * request's secrets are cut out of it (a server may echo a code or a secret back).
 *
 */
export function oauthErrorFromResponse<E extends FhirAuthError>(
  ErrorClass: FlowErrorClass<E>,
  label: string,
  response: HttpResponse,
  secrets: readonly (string | undefined)[],
): E {
  // The fields are redacted before they are cut (a secret straddling the cut would otherwise
  // leave its prefix behind), and the message is built from them: both are logged and shown.
  const oauth = parseOAuthErrorBody(tryParseJsonBody(response), (text) =>
    redactRequestSecrets(text, secrets),
  )
  const where = `${label} to ${safeUrl(response.url)} failed with HTTP ${response.status}`
  if (oauth?.error === undefined) {
    return new ErrorClass({
      status: response.status,
      message: `${where} and no OAuth error in the body`,
    })
  }
  const { error, errorDescription } = oauth
  return new ErrorClass({
    status: response.status,
    error,
    errorDescription,
    errorUri: oauth.errorUri,
    message: `${where}: ${describeOAuthError(error, errorDescription)}`,
  })
}

/**
 * A 2xx body as a JSON object, or the flow's error (with the `HttpError` as `cause`).
 *
 * @param secrets values sent in the request: the server's content type is quoted in the
 *   message, so an echo of them there is cut out (of the `cause` too).
 */
export function successJsonObject<E extends FhirAuthError>(
  ErrorClass: FlowErrorClass<E>,
  label: string,
  response: HttpResponse,
  secrets: readonly (string | undefined)[] = [],
): JsonRecord {
  try {
    return parseJsonObjectBody(response, (text) => redactRequestSecrets(text, secrets))
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    throw new ErrorClass(
      { status: response.status, message: `${label}: ${error.message}` },
      { cause: error },
    )
  }
}

/**
 * Cuts request secrets out of a text, in every form a server or a `fetch` may quote them in:
 * as written, form-encoded and percent-encoded (hex in either case, as .NET writes it
 * lower-case), JSON-escaped (with `/` as `\/` too, as PHP's `json_encode` writes it), and — for
 * a compact JWS such as a client assertion — each of its parts alone (its signature is the
 * credential; a whole JWS is then cut part by part). Longest first, so a secret inside another
 * never cuts the longer one into pieces that stay readable.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-2.1 RFC 3986 §2.1: hex digits of either case
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/errors-and-logging.md
 */
export function redactRequestSecrets(
  text: string,
  secrets: readonly (string | undefined)[],
): string {
  const variants = secrets.flatMap((secret) => {
    if (secret === undefined) return []
    const escaped = JSON.stringify(secret).slice(1, -1)
    // A lone surrogate (a server may issue one in a token) has no percent-encoding: it is read
    // as U+FFFD, as form encoding does, rather than letting encodeURIComponent throw.
    const encoded = [
      formUrlEncode(secret),
      encodeURIComponent(secret.replace(/\p{Cs}/gu, '\uFFFD')),
    ]
    return [
      secret,
      ...encoded,
      ...encoded.map((form) => form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())),
      escaped,
      escaped.replaceAll('/', '\\/'),
      ...(looksLikeJwt(secret) ? secret.split('.') : []),
    ]
  })
  return redactSecrets(
    text,
    [...new Set(variants)].sort((a, b) => b.length - a.length),
  )
}

/** Cuts request secrets out of an error's message and stack (which repeats the message). */
function redactErrorText(error: unknown, secrets: readonly (string | undefined)[]): void {
  if (!(error instanceof Error)) return
  error.message = redactRequestSecrets(error.message, secrets)
  if (error.stack) error.stack = redactRequestSecrets(error.stack, secrets)
}

/**
 * The names (never the values) of a body's members, for messages about a missing one. A name
 * may echo a request secret: each is redacted before it is cut to 40 characters.
 */
export function describeMemberNames(
  body: JsonRecord,
  secrets: readonly (string | undefined)[] = [],
): string {
  const names = Object.keys(body)
  if (names.length === 0) return 'none'
  return (
    names
      .slice(0, 20)
      .map((name) => redactRequestSecrets(name, secrets))
      .map((name) => (name.length > 40 ? `${name.slice(0, 40)}…` : name))
      .join(', ') + (names.length > 20 ? ', …' : '')
  )
}

/** True for a 2xx status. */
export function isSuccessStatus(response: HttpResponse): boolean {
  return response.status >= 200 && response.status < 300
}
