import type { Session } from '@fhir-auth/client'
import { completeLaunch } from './callback.js'
import { beginLaunch } from './launch-routes.js'
import { signOut } from './logout.js'
import { readSettings, type SmartWebAppOptions, type WebAppSettings } from './options.js'
import { requestContext } from './request-context.js'
import { methodNotAllowed, plainText } from './responses.js'

/** A SMART app's server side: four routes and the session of a request. */
export interface SmartWebApp {
  /**
   * The response for the app's four routes (launch, login, callback, logout), `undefined` for
   * any other path (serve it yourself). Never rejects: bad input is a `4xx`, a failing EHR a
   * `502`, a failing store a `503`.
   */
  handle(request: Request): Promise<Response | undefined>
  /**
   * The request's `Session` (from its session cookie), or `undefined` when it has none, or an
   * unknown, expired or signed-out one.
   *
   * @throws StoreError when the store fails.
   */
  session(request: Request): Promise<Session | undefined>
}

/**
 * A SMART app's server side on the Fetch API's `Request` and `Response`, so the same code serves
 * Node (through {@link nodeHandler}), Deno, Bun, Next.js route handlers, Hono and edge runtimes:
 *
 * - `GET /launch?iss=…&launch=…` (EHR launch) and `GET /login[?iss=…]` (standalone launch):
 *   `302` to the EHR, with a launch cookie binding the callback to this browser; an unknown or
 *   missing `iss` is `400` and nothing is fetched;
 * - `GET /callback`: `403` (and no token request) unless this browser's launch cookie names the
 *   callback's `state`; then the session is saved under a new random id, the session cookie set,
 *   and `302` to `afterLogin`; an `AuthorizationError` is `400` naming its error code;
 * - `POST /logout`: the session signed out and its cookie cleared, `303` to `afterLogout`.
 *
 * Cookies are `HttpOnly; SameSite=Lax; Path=/`, and `Secure` (named `__Host-fhir-auth`) unless
 * the request came over plain `http:` to a loopback host (named `fhir-auth`); the launch cookie
 * is the same name plus `-launch`. The session cookie holds only the random session id.
 *
 * @example
 * ```ts
 * const web = smartWebApp({ clients: new Client({ baseUrl, clientId, clientSecret, redirectUri, scopes }) })
 * export default {
 *   async fetch(request: Request) {
 *     const answer = await web.handle(request)
 *     if (answer) return answer
 *     const session = await web.session(request)
 *     if (!session) return Response.redirect(new URL('/login', request.url), 302)
 *     return session.fetch(`Patient/${session.tokens.patient}`)
 *   },
 * }
 * ```
 * @throws ConfigurationError on the options (an unknown name included).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12 RFC 6749 §10.12 (CSRF)
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html SMART App Launch
 */
export function smartWebApp(options: SmartWebAppOptions): SmartWebApp {
  const settings = readSettings(options)
  const sessions = settings.clients.sessions({ ttlSeconds: settings.cookie.maxAgeSeconds })
  return {
    async handle(request) {
      const url = parsedUrl(request)
      const route = url === undefined ? undefined : routeOf(settings, url.pathname)
      if (url === undefined || route === undefined) return undefined
      try {
        const context = requestContext(settings, request, url)
        if (route === 'logout') {
          return request.method === 'POST'
            ? await signOut(settings, sessions, context)
            : methodNotAllowed('POST')
        }
        if (request.method !== 'GET') return methodNotAllowed('GET')
        if (route === 'callback') return await completeLaunch(settings, sessions, context)
        return await beginLaunch(settings, context, route === 'launch' ? 'ehr' : 'standalone')
      } catch {
        return plainText(500, 'Internal error')
      }
    },
    async session(request) {
      const url = parsedUrl(request)
      if (url === undefined) return undefined
      const { sessionId } = requestContext(settings, request, url)
      return sessionId === undefined ? undefined : sessions.open(sessionId)
    },
  }
}

function parsedUrl(request: Request): URL | undefined {
  try {
    return new URL(request.url)
  } catch {
    return undefined
  }
}

function routeOf(
  settings: WebAppSettings,
  path: string,
): keyof WebAppSettings['routes'] | undefined {
  const { routes } = settings
  return (Object.keys(routes) as (keyof typeof routes)[]).find((name) => routes[name] === path)
}
