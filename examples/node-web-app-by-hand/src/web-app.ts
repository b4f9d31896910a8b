import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import {
  AuthorizationError,
  Client,
  type ClientOptions,
  FhirAuthError,
  type KeyValueStore,
  memoryStore,
  type Session,
} from '@fhir-auth/client'
import { FhirReadError, readFhirResource } from './fhir-read.js'
import { escapeHtml, page } from './html.js'
import { readSessionId, sessionCookie } from './session-cookie.js'
import { SessionStore } from './session-store.js'
import type { WebAppSettings } from './settings.js'

/**
 * Scopes for a standalone launch: `launch/patient` asks the server to let the user pick a
 * patient, whose id comes back in the token response; `openid fhirUser` who signed in (a
 * validated ID token); `offline_access` a refresh token.
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html
 */
const standaloneScopes = [
  'launch/patient',
  'patient/Patient.rs',
  'openid',
  'fhirUser',
  'offline_access',
]
/** Scopes for an EHR launch: `launch` binds the EHR's `launch` value (its patient) to the token. */
const ehrLaunchScopes = ['launch', 'patient/Patient.rs', 'openid', 'fhirUser', 'offline_access']

/** Sessions last eight hours; the access token inside is refreshed as needed. */
const sessionLifetimeSeconds = 8 * 3600

/** What {@link createWebApp} can be given besides the settings. */
export interface WebAppOptions {
  /** Goes to the `Client` (e.g. a `logger` such as pino, a `timeoutMs`, a clock). */
  readonly clientOptions?: Omit<ClientOptions, 'clientType'>
  /**
   * Where launches and sessions are kept: `memoryStore()` (the default, one process) or a
   * shared store such as `redisStore(redis)` from `@fhir-auth/store-redis` for several.
   */
  readonly store?: KeyValueStore
}

/**
 * The web app: a `node:http` request listener doing the SMART App Launch as a confidential
 * (client secret) client.
 *
 * - `GET /login` starts a standalone launch;
 * - `GET /launch?iss=…&launch=…` is the EHR launch URL registered with the EHR;
 * - `GET /callback?code=…&state=…` is the registered redirect URI;
 * - `GET /` shows the patient in context, read from the FHIR server with the session.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html
 */
export function createWebApp(
  settings: WebAppSettings,
  options: WebAppOptions = {},
): RequestListener {
  // One Client for the whole app: it discovers the server's endpoints once and caches them.
  const client = new Client(
    {
      baseUrl: settings.fhirBaseUrl,
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      redirectUri: settings.redirectUri,
      scopes: standaloneScopes,
      allowInsecureLocalhost: settings.allowInsecureLocalhost,
    },
    { ...options.clientOptions, clientType: 'confidential_symmetric' },
  )
  // One store for both: the library's launches and the app's sessions.
  const store = options.store ?? memoryStore()
  const sessions = new SessionStore(store, sessionLifetimeSeconds)
  const secureCookies = new URL(settings.redirectUri).protocol === 'https:'
  const cookie = (id: string) =>
    sessionCookie(id, { secure: secureCookies, maxAgeSeconds: sessionLifetimeSeconds })

  /**
   * Starts an authorization: the launch goes to the store (keyed by its state), a new browser
   * session remembers that state, and the browser goes to the server.
   */
  async function startAuthorization(
    response: ServerResponse,
    launchOptions: { launch?: string; customScopes?: readonly string[] },
  ): Promise<void> {
    const { authUrl, state } = await client.beginAuthorization({ store, ...launchOptions })
    const sessionId = await sessions.create({ pendingState: state })
    response.writeHead(302, { location: authUrl, 'set-cookie': cookie(sessionId) })
    response.end()
  }

  /** `GET /launch`: an EHR sends the user here with its FHIR base URL and a launch value. */
  async function ehrLaunch(url: URL, response: ServerResponse): Promise<void> {
    const iss = url.searchParams.get('iss')
    const launch = url.searchParams.get('launch')
    // Only ever talk to the configured server: a launch URL anyone can craft must not make the
    // app send its credentials (or the user) to a server the attacker picked.
    if (iss === null || withoutTrailingSlash(iss) !== withoutTrailingSlash(settings.fhirBaseUrl)) {
      sendMessage(
        response,
        400,
        'Launch refused',
        'The launch names a FHIR server this app does not know.',
      )
      return
    }
    if (!launch) {
      sendMessage(response, 400, 'Launch refused', 'The launch has no launch parameter.')
      return
    }
    await startAuthorization(response, { launch, customScopes: ehrLaunchScopes })
  }

  /** `GET /callback`: the authorization server sends the user back here. */
  async function callback(
    url: URL,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    // Single use: whatever happens next, this browser session cannot complete a sign-in twice.
    const pending = (await sessions.take(readSessionId(request)))?.pendingState
    const state = url.searchParams.get('state')
    // The launch in the store is keyed by state alone; this check binds the callback to the
    // browser that started it. Without it an attacker could make a victim's browser complete
    // the *attacker's* authorization (login CSRF, RFC 6749 §10.12).
    if (pending === undefined || state === null || !sameText(state, pending)) {
      sendMessage(
        response,
        400,
        'Sign-in failed',
        'The sign-in response does not match a sign-in started in this browser. Start again.',
      )
      return
    }
    let session: Session
    try {
      // The callback's error, state (the stored launch, used once), RFC 9207 iss and code, in
      // that order; then the code exchange and the ID token check.
      session = await client.completeAuthorization(url, { store })
    } catch (error) {
      if (!(error instanceof AuthorizationError)) throw error
      sendMessage(
        response,
        400,
        'Sign-in failed',
        `The authorization server answered: ${error.error}`,
      )
      return
    }
    const patientId = session.tokens.patient
    if (patientId === undefined) {
      sendMessage(response, 502, 'Sign-in failed', 'The server granted no patient context.')
      return
    }
    const signedIn = { tokens: session.tokens.serialize(), patientId }
    // Redirect instead of rendering here, so the code leaves the address bar and the history.
    response.writeHead(303, {
      location: '/',
      'set-cookie': cookie(await sessions.create({ signedIn })),
    })
    response.end()
  }

  /** `GET /`: the patient in context, or the login link. */
  async function home(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const sessionId = readSessionId(request)
    const signedIn = (await sessions.get(sessionId))?.signedIn
    if (sessionId === undefined || signedIn === undefined) {
      sendPage(
        response,
        200,
        'SMART on FHIR web app',
        '<p><a href="/login">Sign in and pick a patient</a></p>',
      )
      return
    }
    // The tokens as the store holds them; a refresh (rotating the refresh token) goes back there.
    const session = client.resumeSession(signedIn.tokens, {
      onTokens: (tokens) =>
        sessions.update(sessionId, { signedIn: { ...signedIn, tokens: tokens.serialize() } }),
    })
    const patient = await readFhirResource(
      session,
      `Patient/${encodeURIComponent(signedIn.patientId)}`,
    )
    sendPage(
      response,
      200,
      'Patient',
      `<p>Patient id: <span id="patient-id">${escapeHtml(signedIn.patientId)}</span></p>
<p>Name: <span id="patient-name">${escapeHtml(describeName(patient))}</span></p>
<p>Signed in as: <span id="user">${escapeHtml(session.tokens.fhirUser ?? '(unknown)')}</span></p>
<p>Granted scope: <span id="scope">${escapeHtml(session.tokens.scopes.join(' '))}</span></p>`,
    )
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://app.invalid')
    if (request.method !== 'GET') {
      response.writeHead(405, { allow: 'GET' }).end()
      return
    }
    switch (url.pathname) {
      case '/':
        return home(request, response)
      case '/login':
        return startAuthorization(response, {})
      case '/launch':
        return ehrLaunch(url, response)
      case '/callback':
        return callback(url, request, response)
      default:
        sendMessage(response, 404, 'Not found', `No page at ${url.pathname}`)
    }
  }

  return (request, response) => {
    route(request, response).catch((error: unknown) => {
      // fhir-auth errors name the problem and never carry secrets, so they may be shown; a
      // production app would show a generic page and log the error instead.
      const status = error instanceof FhirAuthError || error instanceof FhirReadError ? 502 : 500
      const message =
        error instanceof Error ? `${error.name}: ${error.message}` : 'unexpected error'
      if (!response.headersSent) sendMessage(response, status, 'Something went wrong', message)
      else response.end()
    })
  }
}

/** Sends a page; `bodyHtml` must already be escaped. */
function sendPage(response: ServerResponse, status: number, title: string, bodyHtml: string): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    // Pages show patient data: keep them out of shared and browser caches.
    'cache-control': 'no-store',
  })
  response.end(page(title, bodyHtml))
}

/** Sends a page with one paragraph of plain text. */
function sendMessage(response: ServerResponse, status: number, title: string, text: string): void {
  sendPage(response, status, title, `<p>${escapeHtml(text)}</p>`)
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '')
}

/** Compares in constant time, so response timing does not reveal how much of `state` matched. */
function sameText(received: string, expected: string): boolean {
  const a = Buffer.from(received)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** "Given Family" from the first `HumanName`, or the `text`. */
function describeName(patient: Record<string, unknown>): string {
  const names = patient.name
  const first = Array.isArray(names) ? (names[0] as Record<string, unknown> | undefined) : undefined
  if (first === undefined) return '(no name)'
  if (typeof first.text === 'string') return first.text
  const given = Array.isArray(first.given)
    ? first.given.filter((part) => typeof part === 'string')
    : []
  const family = typeof first.family === 'string' ? [first.family] : []
  return [...given, ...family].join(' ') || '(no name)'
}
