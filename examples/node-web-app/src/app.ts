import type { RequestListener } from 'node:http'
import { Client, ClientDirectory, type KeyValueStore, type Session } from '@fhir-auth/client'
import { fetchRequestFrom, nodeHandler, smartWebApp } from '@fhir-auth/web'

/** One EHR's registration of this app. */
export interface Ehr {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
}

/** What the app runs with. */
export interface AppSettings {
  /** Every EHR that may launch the app; an `iss` not among them is refused (400). */
  readonly ehrs: readonly Ehr[]
  /** `https://<your app>/callback`, registered with every EHR. */
  readonly redirectUri: string
  /** Launches and sessions; default memory (one process), `redisStore(redis)` for several. */
  readonly store?: KeyValueStore
  /** Plain HTTP to 127.0.0.1 / localhost: for a local test server only. */
  readonly allowInsecureLocalhost?: boolean
}

/**
 * The web app: `/launch` (EHR launch), `/login?iss=…` (standalone), `/callback`, `POST /logout`
 * from `@fhir-auth/web`, and `/`, which shows the patient in context.
 */
export function createWebApp(settings: AppSettings): RequestListener {
  const clients = settings.ehrs.map(
    (ehr) =>
      new Client(
        {
          ...ehr,
          redirectUri: settings.redirectUri,
          scopes: ['launch', 'launch/patient', 'patient/Patient.rs', 'openid', 'fhirUser'],
          allowInsecureLocalhost: settings.allowInsecureLocalhost,
        },
        { clientType: 'confidential_symmetric' },
      ),
  )
  const web = smartWebApp({ clients: new ClientDirectory({ clients, store: settings.store }) })
  const routes = nodeHandler(web)
  return (request, response) =>
    routes(request, response, () => {
      home(web.session(fetchRequestFrom(request)), settings.ehrs).then(
        (page) => response.writeHead(page.status, { 'content-type': 'text/html' }).end(page.html),
        () => response.writeHead(502, { 'content-type': 'text/plain' }).end('failed'),
      )
    })
}

/** The patient page, or the sign-in page without a session. */
async function home(
  opening: Promise<Session | undefined>,
  ehrs: readonly Ehr[],
): Promise<{ status: number; html: string }> {
  const session = await opening
  if (session === undefined) {
    const links = ehrs.map(
      (ehr) =>
        `<li><a href="/login?iss=${encodeURIComponent(ehr.baseUrl)}">${escapeHtml(ehr.baseUrl)}</a></li>`,
    )
    return { status: 401, html: `<h1>Sign in</h1><ul>${links.join('')}</ul>` }
  }
  const patient = (await (await session.fetch(`Patient/${session.tokens.patient}`)).json()) as {
    readonly name?: readonly { readonly family?: string }[]
  }
  const html = `<h1>Patient <span id="patient-id">${escapeHtml(session.tokens.patient ?? '')}</span></h1>
<p id="family">${escapeHtml(patient.name?.[0]?.family ?? '')}</p>
<form method="post" action="/logout"><button>Sign out</button></form>`
  return { status: 200, html }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}
