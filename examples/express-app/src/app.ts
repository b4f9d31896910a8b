import { timingSafeEqual } from 'node:crypto'
import {
  AuthorizationError,
  Client,
  type ClientOptions,
  FhirAuthError,
  type KeyValueStore,
  memoryStore,
} from '@fhir-auth/client'
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type Response,
} from 'express'
import { CookieKeyedStore } from './cookie-keyed-store.js'
import { cookieOptions, launchBindingCookie, readCookie, sessionCookie } from './cookies.js'
import { FhirReadError, readFhirResource } from './fhir-read.js'
import { escapeHtml, page } from './html.js'
import type { WebAppSettings } from './settings.js'

/**
 * Scopes for a standalone launch: `launch/patient` lets the user pick a patient at the
 * authorization server; `openid fhirUser` who signed in; `offline_access` a refresh token.
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

/** As long as the library keeps a launch (10 minutes): a sign-in must finish within it. */
const launchBindingLifetimeSeconds = 600
/** Sessions last eight hours; the access token inside is refreshed as needed. */
const sessionLifetimeSeconds = 8 * 3600

/** A signed-in browser: its tokens as `TokenSet.serialize()` wrote them, and its patient. */
interface SignedIn {
  readonly tokens: string
  readonly patientId: string
}

/** What {@link createApp} can be given besides the settings. */
export interface AppOptions {
  /** Goes to the `Client` (e.g. a `logger` such as pino, a `timeoutMs`, a clock). */
  readonly clientOptions?: Omit<ClientOptions, 'clientType'>
  /**
   * Where launches, launch bindings and sessions are kept: `memoryStore()` (the default, one
   * process) or `redisStore(redis)` from `@fhir-auth/store-redis` for several.
   */
  readonly store?: KeyValueStore
}

/**
 * The Express app, a confidential (client secret) SMART client:
 *
 * - `GET /login` starts a standalone launch;
 * - `GET /launch?iss=…&launch=…` is the EHR launch URL registered with the EHR;
 * - `GET /callback?code=…&state=…` is the registered redirect URI;
 * - `GET /` shows the patient in context, read from the FHIR server through the session.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html
 */
export function createApp(settings: WebAppSettings, options: AppOptions = {}): Express {
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
  // One store for all three: the library's launches, the app's launch bindings and sessions.
  const store = options.store ?? memoryStore()
  const launchBindings = new CookieKeyedStore<string>(
    store,
    'express-app:launch-binding',
    launchBindingLifetimeSeconds,
  )
  const sessions = new CookieKeyedStore<SignedIn>(
    store,
    'express-app:session',
    sessionLifetimeSeconds,
  )
  const secure = new URL(settings.redirectUri).protocol === 'https:'
  const callbackPath = new URL(settings.redirectUri).pathname
  const bindingCookieOptions = cookieOptions({
    secure,
    path: callbackPath,
    maxAgeSeconds: launchBindingLifetimeSeconds,
  })
  const sessionCookieOptions = cookieOptions({
    secure,
    path: '/',
    maxAgeSeconds: sessionLifetimeSeconds,
  })

  /**
   * Starts an authorization: the launch goes to the store (keyed by its state), the browser gets
   * a cookie naming that state (server-side, under a fresh id) and goes to the server.
   */
  async function startAuthorization(
    response: Response,
    launchOptions: { launch?: string; customScopes?: readonly string[] },
  ): Promise<void> {
    const { authUrl, state } = await client.beginAuthorization({ store, ...launchOptions })
    const bindingId = await launchBindings.create(state)
    response.cookie(launchBindingCookie, bindingId, bindingCookieOptions)
    response.redirect(302, authUrl)
  }

  const app = express()
  app.disable('x-powered-by')

  app.get('/login', async (_request, response) => {
    await startAuthorization(response, {})
  })

  // An EHR sends the user here with its FHIR base URL and a launch value.
  app.get('/launch', async (request, response) => {
    const url = requestUrl(request)
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
  })

  // The authorization server sends the user back here.
  app.get(callbackPath, async (request, response) => {
    const url = requestUrl(request)
    // Single use: whatever happens next, this binding cannot complete a sign-in again.
    response.clearCookie(launchBindingCookie, bindingCookieOptions)
    const boundState = await launchBindings.take(readCookie(request, launchBindingCookie))
    const state = url.searchParams.get('state')
    // The launch in the store is keyed by state alone; this check binds the callback to the
    // browser that started it. Without it an attacker could make a victim's browser complete
    // the *attacker's* authorization, signing the victim in to the attacker's account or patient
    // (login CSRF, RFC 6749 §10.12).
    if (boundState === undefined || state === null || !sameText(state, boundState)) {
      sendMessage(
        response,
        400,
        'Sign-in failed',
        'The sign-in response does not match a sign-in started in this browser. Start again.',
      )
      return
    }
    try {
      // The callback's error, state (the stored launch, used once), RFC 9207 iss and code, in
      // that order; then the code exchange and the ID token check.
      const session = await client.completeAuthorization(url, { store })
      const patientId = session.tokens.patient
      if (patientId === undefined) {
        sendMessage(response, 502, 'Sign-in failed', 'The server granted no patient context.')
        return
      }
      const sessionId = await sessions.create({ tokens: session.tokens.serialize(), patientId })
      response.cookie(sessionCookie, sessionId, sessionCookieOptions)
      // Redirect instead of rendering here, so the code leaves the address bar and the history.
      response.redirect(303, '/')
    } catch (error) {
      if (!(error instanceof AuthorizationError)) throw error
      sendMessage(
        response,
        400,
        'Sign-in failed',
        `The authorization server answered: ${error.error}`,
      )
    }
  })

  // The patient in context, read through the session; or the login link.
  app.get('/', async (request, response) => {
    const sessionId = readCookie(request, sessionCookie)
    const signedIn = await sessions.get(sessionId)
    if (sessionId === undefined || signedIn === undefined) {
      sendPage(
        response,
        200,
        'SMART on FHIR with Express',
        '<p><a href="/login">Sign in and pick a patient</a></p>',
      )
      return
    }
    // The tokens as the store holds them; a refresh (rotating the refresh token) goes back there.
    const session = client.resumeSession(signedIn.tokens, {
      onTokens: (tokens) => sessions.update(sessionId, { ...signedIn, tokens: tokens.serialize() }),
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
<p>Signed in as: <span id="user">${escapeHtml(session.tokens.fhirUser ?? '(unknown)')}</span></p>`,
    )
  })

  // Express 5 passes a rejected handler here. fhir-auth errors name the problem and never carry
  // secrets, so they may be shown; a production app would show a generic page and log instead.
  const onError: ErrorRequestHandler = (error: unknown, _request, response, next) => {
    if (response.headersSent) {
      next(error)
      return
    }
    const status = error instanceof FhirAuthError || error instanceof FhirReadError ? 502 : 500
    const message = error instanceof Error ? `${error.name}: ${error.message}` : 'unexpected error'
    sendMessage(response, status, 'Something went wrong', message)
  }
  app.use(onError)
  return app
}

/** The request's URL; only its path and query are read, so the origin is a placeholder. */
function requestUrl(request: Request): URL {
  return new URL(request.originalUrl, 'http://app.invalid')
}

/** Sends a page; `bodyHtml` must already be escaped. */
function sendPage(response: Response, status: number, title: string, bodyHtml: string): void {
  // Pages show patient data: keep them out of shared and browser caches.
  response.status(status).set('cache-control', 'no-store').type('html').send(page(title, bodyHtml))
}

/** Sends a page with one paragraph of plain text. */
function sendMessage(response: Response, status: number, title: string, text: string): void {
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

/** "Given Family" from the first `HumanName`, or its `text`. */
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
