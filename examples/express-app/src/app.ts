import {
  Client,
  type ClientOptions,
  FhirAuthError,
  type KeyValueStore,
  type Session,
} from '@fhir-auth/client'
import { fetchRequestFrom, nodeHandler, smartWebApp } from '@fhir-auth/web'
import express, { type ErrorRequestHandler, type Express, type Response } from 'express'
import { FhirReadError, readFhirResource } from './fhir-read.js'
import { escapeHtml, page } from './html.js'
import type { WebAppSettings } from './settings.js'

/**
 * `launch` lets an EHR launch bind the EHR's patient to the token; `launch/patient` lets the user
 * pick one in a standalone launch; `openid fhirUser` who signed in; `offline_access` a refresh token.
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html
 */
const scopes = [
  'launch',
  'launch/patient',
  'patient/Patient.rs',
  'openid',
  'fhirUser',
  'offline_access',
]

/** What {@link createApp} can be given besides the settings. */
export interface AppOptions {
  /** Goes to the `Client` (e.g. a `logger` such as pino, a `timeoutMs`, a clock). */
  readonly clientOptions?: Omit<ClientOptions, 'clientType'>
  /** Launches and sessions: `memoryStore()` by default (one process), `redisStore(redis)` for several. */
  readonly store?: KeyValueStore
}

/**
 * The Express app, a confidential (client secret) SMART client. `@fhir-auth/web`, mounted as
 * middleware, answers `GET /launch?iss=…&launch=…` (EHR launch; an `iss` other than the
 * configured server is 400 and nothing is fetched), `GET /login` (standalone launch), the
 * redirect URI's path (the callback, bound to the browser that began the launch: RFC 6749
 * §10.12) and `POST /logout` (revokes the tokens). The app's own `GET /` shows the patient,
 * read from the FHIR server through the session.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html
 */
export function createApp(settings: WebAppSettings, options: AppOptions = {}): Express {
  const client = new Client(
    {
      baseUrl: settings.fhirBaseUrl,
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      redirectUri: settings.redirectUri,
      scopes,
      allowInsecureLocalhost: settings.allowInsecureLocalhost,
    },
    { ...options.clientOptions, clientType: 'confidential_symmetric' },
  )
  const callback = new URL(settings.redirectUri).pathname
  const web = smartWebApp({ clients: client, store: options.store, routes: { callback } })
  const app = express()
  app.disable('x-powered-by')
  app.use(nodeHandler(web))
  app.get('/', async (request, response) => {
    const session = await web.session(fetchRequestFrom(request))
    if (session === undefined) {
      const signIn = '<p><a href="/login">Sign in and pick a patient</a></p>'
      return sendPage(response, 200, 'SMART on FHIR with Express', signIn)
    }
    sendPage(response, 200, 'Patient', await patientHtml(session))
  })
  // Express 5 passes a rejected handler here. fhir-auth errors name the problem and never carry
  // secrets, so they may be shown; a production app would show a generic page and log instead.
  const onError: ErrorRequestHandler = (error: unknown, _request, response, next) => {
    if (response.headersSent) return next(error)
    const status = error instanceof FhirAuthError || error instanceof FhirReadError ? 502 : 500
    const message = error instanceof Error ? `${error.name}: ${error.message}` : 'unexpected error'
    sendPage(response, status, 'Something went wrong', `<p>${escapeHtml(message)}</p>`)
  }
  app.use(onError)
  return app
}

/** The patient in context (read with the session's token, refreshed as needed), and sign-out. */
async function patientHtml(session: Session): Promise<string> {
  const patientId = session.tokens.patient ?? ''
  const patient = await readFhirResource(session, `Patient/${encodeURIComponent(patientId)}`)
  return `<p>Patient id: <span id="patient-id">${escapeHtml(patientId)}</span></p>
<p>Name: <span id="patient-name">${escapeHtml(describeName(patient))}</span></p>
<p>Signed in as: <span id="user">${escapeHtml(session.tokens.fhirUser ?? '(unknown)')}</span></p>
<form method="post" action="/logout"><button>Sign out</button></form>`
}

/** Sends a page; `bodyHtml` must already be escaped. */
function sendPage(response: Response, status: number, title: string, bodyHtml: string): void {
  // Pages show patient data: keep them out of shared and browser caches.
  response.status(status).set('cache-control', 'no-store').type('html').send(page(title, bodyHtml))
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
