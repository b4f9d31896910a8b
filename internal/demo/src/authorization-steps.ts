/**
 * The user's part of an app launch, played by the SMART sandbox's headless user agent: the
 * authorization request the library builds, the browser's trip through sign-in and consent,
 * and the redirect back with `code` and `state`, which `client.completeAuthorization` checks.
 */
import type { AuthorizeRequest, AuthorizeResult } from '@fhir-auth/sandbox'
import { memberRows } from './exchange-view.js'
import type { Transcript } from './transcript.js'

/** A sandbox's headless user agent: SMART and UDAP sandboxes both have one. */
export interface UserAgent {
  authorize(
    request: AuthorizeRequest,
    options?: { readonly decision?: 'approve' | 'deny' },
  ): Promise<AuthorizeResult>
}

/** An authorization request as the library returns it: GET URL, or POST endpoint and form. */
export interface BuiltRequest {
  readonly authUrl: string
  readonly params?: Readonly<Record<string, string>>
}

/** Shows where the browser goes and every parameter it carries. */
export function showAuthorizationRequest(transcript: Transcript, request: BuiltRequest): void {
  const url = new URL(request.authUrl)
  const parameters = request.params ?? Object.fromEntries(url.searchParams)
  transcript.request(
    request.params === undefined ? 'GET' : 'POST',
    `${url.origin}${url.pathname}`,
    request.params === undefined
      ? 'the browser is sent here (authUrl)'
      : 'the browser submits this form (authUrl + params)',
  )
  transcript.rows(memberRows(parameters))
}

/** Sends the user agent where the request says (GET URL, or POST form). */
export function userAgentRequest(request: BuiltRequest): AuthorizeRequest {
  return request.params === undefined
    ? { url: request.authUrl }
    : { endpoint: request.authUrl, params: request.params }
}

/** Shows the redirect back to the app and its parameters (secrets summarised by name). */
export function showRedirect(transcript: Transcript, result: AuthorizeResult): void {
  const redirect = result.redirectUrl
  transcript.response(
    result.status,
    `redirect to ${redirect ? redirect.origin + redirect.pathname : '?'}`,
  )
  transcript.rows(memberRows(Object.fromEntries(redirect?.searchParams ?? [])))
}
