// An EHR launch in a small web server: the EHR opens /launch?iss=…&launch=…, the user comes back
// to /callback, and the page shows the patient in context. Against the sandbox: start this with
// the web-app client it prints (sandbox-web-app, its secret, http://localhost:3000/callback),
// then open the EHR launch URL it prints.
import { timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import { Client, memoryStore } from '@fhir-auth/client'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

const fhirBaseUrl = env('FHIR_BASE_URL')
const client = new Client(
  {
    baseUrl: fhirBaseUrl,
    clientId: env('CLIENT_ID'),
    clientSecret: env('CLIENT_SECRET'),
    redirectUri: env('REDIRECT_URI'), // http://localhost:3000/callback
    scopes: ['launch', 'patient/Patient.rs', 'openid', 'fhirUser'],
    allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true',
  },
  { clientType: 'confidential_symmetric' },
)
const store = memoryStore() // launches, keyed by state; redisStore(redis) for several processes
/** Compares in constant time, so timing does not tell how much of the state matched. */
function sameText(received: string, expected: string): boolean {
  const [a, b] = [Buffer.from(received), Buffer.from(expected)]
  return a.length === b.length && timingSafeEqual(a, b)
}

createServer(async (request, response) => {
  try {
    const url = new URL(request.url ?? '/', 'http://localhost')
    if (url.pathname === '/launch') {
      const iss = url.searchParams.get('iss')?.replace(/\/$/, '')
      const launch = url.searchParams.get('launch')
      // Only the server this app is registered with: a crafted link must not redirect it.
      if (iss !== fhirBaseUrl.replace(/\/$/, '') || !launch) {
        response.writeHead(400).end('unknown FHIR server, or no launch')
        return
      }
      const { authUrl, state } = await client.beginAuthorization({ store, launch })
      // The state in an HttpOnly cookie binds the callback to this browser (RFC 6749 §10.12).
      const cookie = `launch-state=${state}; HttpOnly; SameSite=Lax; Path=/`
      response.writeHead(302, { location: authUrl, 'set-cookie': cookie }).end()
    } else if (url.pathname === '/callback') {
      const kept = /(?:^|; )launch-state=([^;]+)/.exec(request.headers.cookie ?? '')?.[1]
      const state = url.searchParams.get('state')
      if (kept === undefined || state === null || !sameText(state, kept)) {
        response.writeHead(400).end('this browser did not start this sign-in')
        return
      }
      const session = await client.completeAuthorization(url, { store })
      const patient = await session.fetch(`Patient/${session.tokens.patient}`)
      const clear = 'launch-state=; Max-Age=0; Path=/'
      response.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': clear })
      response.end(`patient ${session.tokens.patient}: ${JSON.stringify(await patient.json())}`)
    } else {
      response.writeHead(404).end()
    }
  } catch (error) {
    // fhir-auth errors never carry secrets; a production app would log and show a generic page.
    response.writeHead(502).end(error instanceof Error ? error.message : 'failed')
  }
}).listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`EHR launch URL: http://localhost:${process.env.PORT ?? 3000}/launch`)
})
