/**
 * The user's part of an app launch, played by the SMART sandbox's headless user agent: the
 * authorization request the library builds, the browser's trip through sign-in and consent,
 * and the redirect back with `code` and `state`, which the app checks against what it stored.
 */
import type { AuthorizationUrlOptions, Client } from '@fhir-auth/client'
import type { AuthorizeRequest, AuthorizeResult, SmartSandbox } from '@fhir-auth/sandbox'
import type { DemoContext } from './demo-context.js'
import { DemoFailure } from './demo-failure.js'
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

/** What the app keeps from an authorization for the code exchange. */
export interface CompletedAuthorization {
  readonly code: string
  readonly codeVerifier: string
}

/** How much of the authorization the transcript shows. */
export type AuthorizationDetail = 'full' | 'brief'

/**
 * Builds the authorization request with `client.authorizationUrl(options)`, lets the headless
 * user approve it and checks the returned `state`. `full` shows every parameter both ways;
 * `brief` one line (for sections where the code exchange is the subject).
 *
 * @throws DemoFailure when no code comes back (naming the server's error) or `state` differs.
 */
export async function authorize(
  context: DemoContext,
  sandbox: SmartSandbox,
  client: Client,
  options: AuthorizationUrlOptions,
  detail: AuthorizationDetail,
): Promise<CompletedAuthorization> {
  const { transcript, ledger } = context
  const code = `client.authorizationUrl(${describeOptions(options)})`
  const request = await context.call(
    detail === 'full' ? code : `${code} → sandbox.authorize(…)`,
    () => client.authorizationUrl(options),
  )
  ledger.add('state', request.state)
  ledger.add('PKCE code verifier', request.codeVerifier)
  if (detail === 'full') {
    showAuthorizationRequest(transcript, request)
    transcript.call('sandbox.authorize(…): the user signs in and approves (headless browser)')
  }
  const result = await sandbox.authorize(userAgentRequest(request))
  if (result.code === undefined) {
    throw new DemoFailure(
      `authorization refused: ${result.error ?? 'no code'} (${result.errorDescription ?? 'no description'})`,
    )
  }
  ledger.add('authorization code', result.code)
  if (result.state !== request.state) {
    throw new DemoFailure('the redirect carries another state than the one the app stored')
  }
  if (detail === 'full') {
    showRedirect(transcript, result)
    transcript.ok('state in the redirect equals the state the app stored (CSRF check)')
  } else {
    transcript.ok(
      `${request.params === undefined ? 'GET' : 'POST'} authorization approved: code received, state matches`,
    )
  }
  return { code: result.code, codeVerifier: request.codeVerifier }
}

function describeOptions(options: AuthorizationUrlOptions): string {
  const parts: string[] = []
  if (options.launch !== undefined) parts.push('launch')
  if (options.method !== undefined) parts.push(`method: '${options.method}'`)
  if (options.customScopes !== undefined) parts.push('customScopes')
  return parts.length === 0 ? '' : `{ ${parts.join(', ')} }`
}
