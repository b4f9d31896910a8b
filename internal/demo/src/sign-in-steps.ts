/**
 * A launch the way most apps run it (DESIGN §8): `client.beginAuthorization` keeps the launch
 * in a store, the sandbox's headless user agent signs in (and, for Tiered OAuth, travels to the
 * identity provider and back), and the callback URL is what `client.completeAuthorization`
 * checks and exchanges.
 */
import type { BeginAuthorizationOptions, Client, KeyValueStore, Session } from '@fhir-auth/client'
import {
  showAuthorizationRequest,
  showRedirect,
  type UserAgent,
  userAgentRequest,
} from './authorization-steps.js'
import type { DemoContext } from './demo-context.js'
import { DemoFailure } from './demo-failure.js'

/** The options a flow shows in the call line, e.g. `{ store, idp }`. */
export function describeBeginOptions(options: BeginAuthorizationOptions): string {
  const names = Object.entries(options)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => (name === 'method' ? `method: '${String(value)}'` : name))
  return `{ ${names.join(', ')} }`
}

/** Where a sign-in ended, and what the app asked for. */
export interface SignIn {
  /** The URL the user agent was redirected to, for `completeAuthorization`. */
  readonly callbackUrl: string
  /** The parameters of the authorization request (query or form). */
  readonly parameters: Readonly<Record<string, string>>
}

/** How much of the sign-in the transcript shows. */
export type SignInDetail = 'full' | 'brief'

/**
 * Begins a launch with `options` (a `store` among them), shows the request, lets the user agent
 * sign in with `decision`, and returns the callback URL it stopped at (its `code` goes to the
 * ledger first). `full` shows every parameter both ways; `brief` one line (for sections where the
 * code exchange is the subject).
 *
 * @throws DemoFailure when the user agent is not redirected back to the app.
 */
export async function beginAndSignIn(
  context: DemoContext,
  userAgent: UserAgent,
  client: Client,
  options: BeginAuthorizationOptions,
  journey: string,
  decision: 'approve' | 'deny' = 'approve',
  detail: SignInDetail = 'full',
): Promise<SignIn> {
  const { transcript, ledger } = context
  const call = `client.beginAuthorization(${describeBeginOptions(options)})`
  const begun = await context.call(
    detail === 'full' ? call : `${call} → sandbox.authorize(…)`,
    () => client.beginAuthorization(options),
  )
  ledger.add('state', begun.state)
  if (detail === 'full') {
    showAuthorizationRequest(transcript, begun)
    transcript.call(`sandbox.authorize(…): ${journey} (headless browser)`)
  }
  const result = await userAgent.authorize(userAgentRequest(begun), { decision })
  if (result.code !== undefined) ledger.add('authorization code', result.code)
  if (result.redirectUrl === undefined) {
    throw new DemoFailure(
      `the user agent was not sent back to the app: ${result.error ?? 'no redirect'}`,
    )
  }
  if (detail === 'full') showRedirect(transcript, result)
  else transcript.ok(`${begun.params === undefined ? 'GET' : 'POST'} authorization: ${journey}`)
  const parameters = begun.params ?? Object.fromEntries(new URL(begun.authUrl).searchParams)
  return { callbackUrl: result.redirectUrl.href, parameters }
}

/** The token response members the sections show. */
export const codeTokenFields = [
  'access_token',
  'refresh_token',
  'id_token',
  'token_type',
  'expires_in',
  'scope',
]

/**
 * Completes a sign-in from its callback URL and the store its launch was kept in: the library
 * checks the callback (error, `state` against the stored launch, RFC 9207 `iss`, code) before
 * it exchanges the code, so the app compares nothing by hand. Shows `responseFields` of the token
 * response.
 */
export async function completeSignIn(
  context: DemoContext,
  client: Client,
  signIn: SignIn,
  store: KeyValueStore,
  responseFields: readonly string[] = codeTokenFields,
): Promise<Session> {
  const session = await context.call(
    'client.completeAuthorization(callbackUrl, { store })',
    () => client.completeAuthorization(signIn.callbackUrl, { store }),
    { responseFields },
  )
  context.transcript.ok(callbackChecked)
  return session
}

/** What `completeAuthorization` checked before it sent the code (RFC 6749 §10.12, RFC 9207). */
export const callbackChecked =
  "the library checked the callback before sending the code: state is this launch's, iss the server's (RFC 9207)"
