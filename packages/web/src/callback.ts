import type { SessionStore } from '@fhir-auth/client'
import { clearCookie, launchCookieMaxAgeSeconds, setCookie } from './cookies.js'
import { failureResponse } from './failures.js'
import { boundState, pendingStates, withoutLaunch } from './launch-binding.js'
import type { WebAppSettings } from './options.js'
import type { RequestContext } from './request-context.js'
import { plainText, redirect } from './responses.js'

/** The callback parameters that must come at most once (RFC 6749 §3.1: not repeated). */
const singleCallbackParameters = ['code', 'iss', 'error'] as const

/**
 * `GET /callback`: completes the launch its `state` names, only in the browser whose launch
 * cookie names that `state` (else `403`, and no token request). On success the session is
 * saved under a new random id (never an id the browser sent before: RFC 6749 §10.12, session
 * fixation), the session cookie holds that id, and the answer is `302` to `afterLogin`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12 RFC 6749 §10.12 (CSRF)
 * @see https://owasp.org/www-community/attacks/Session_fixation session fixation
 */
export async function completeLaunch(
  settings: WebAppSettings,
  sessions: SessionStore,
  context: RequestContext,
): Promise<Response> {
  const { url, cookies } = context
  const states = pendingStates(context.launchCookie)
  const state = boundState(url.searchParams, states)
  if (state === undefined) {
    return plainText(403, 'Forbidden: this sign-in was not started in this browser')
  }
  const remaining = withoutLaunch(states, state)
  const launchCookie =
    remaining === undefined
      ? clearCookie(cookies.launchName, cookies.secure)
      : setCookie(cookies.launchName, remaining, launchCookieMaxAgeSeconds, cookies.secure)
  if (singleCallbackParameters.some((name) => url.searchParams.getAll(name).length > 1)) {
    return plainText(400, 'Sign-in failed: invalid_request', {}, [launchCookie])
  }
  try {
    const session = await settings.clients.completeAuthorization(url.href)
    const id = await sessions.save(session)
    // Signing in again replaces the session this browser had (if it had one).
    if (context.sessionId !== undefined) {
      await sessions.delete(context.sessionId).catch(() => undefined)
    }
    const sessionCookie = setCookie(
      cookies.sessionName,
      id,
      settings.cookie.maxAgeSeconds,
      cookies.secure,
    )
    return redirect(302, settings.afterLogin, [launchCookie, sessionCookie])
  } catch (error) {
    return failureResponse(error, [launchCookie])
  }
}
