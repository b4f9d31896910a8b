/**
 * A Hono app for two EHRs on `@fhir-auth/web`: Hono runs on the Fetch API, so `web.handle`
 * takes its raw `Request` as it is. `/launch`, `/login?iss=…`, `/callback` and `POST /logout`
 * are answered by `@fhir-auth/web`; `/patient` returns the patient in context as FHIR JSON.
 */
import { Client, ClientDirectory, type KeyValueStore } from '@fhir-auth/client'
import { smartWebApp } from '@fhir-auth/web'
import { Hono } from 'hono'

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
  /** Launches and sessions; default memory (one isolate), a shared store for several. */
  readonly store?: KeyValueStore
  /** Plain HTTP to 127.0.0.1 / localhost: for a local test server only. */
  readonly allowInsecureLocalhost?: boolean
}

export function createApp(settings: AppSettings): Hono {
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
  const app = new Hono()
  // The four routes; every other request goes on to the app's own routes.
  app.use(async (context, next) => {
    const answer = await web.handle(context.req.raw)
    if (answer) return answer
    await next()
    return undefined
  })
  app.get('/patient', async (context) => {
    const session = await web.session(context.req.raw)
    if (!session) return context.text('Open this app from your EHR', 401)
    return session.fetch(`Patient/${session.tokens.patient}`)
  })
  return app
}
