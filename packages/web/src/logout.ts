import type { SessionStore } from '@fhir-auth/client'
import { clearCookie } from './cookies.js'
import type { WebAppSettings } from './options.js'
import type { RequestContext } from './request-context.js'
import { redirect } from './responses.js'

/**
 * `POST /logout`: signs the session out (its tokens revoked where the EHR offers revocation,
 * RFC 7009, then deleted from the store), clears the session cookie and answers `303` to
 * `afterLogout`. The cookie is cleared even when the store or the EHR fails: the browser is
 * signed out either way. Only `POST`, and `SameSite=Lax` keeps other sites from sending it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7009 RFC 7009 (token revocation)
 */
export async function signOut(
  settings: WebAppSettings,
  sessions: SessionStore,
  context: RequestContext,
): Promise<Response> {
  const { sessionId, cookies } = context
  if (sessionId !== undefined) {
    try {
      await sessions.signOut(sessionId)
    } catch {
      await sessions.delete(sessionId).catch(() => undefined)
    }
  }
  return redirect(303, settings.afterLogout, [clearCookie(cookies.sessionName, cookies.secure)])
}
