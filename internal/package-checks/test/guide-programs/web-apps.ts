// One web app that many EHRs launch: each EHR opens /launch?iss=…&launch=…, one redirect URI
// (/callback) serves them all, /login starts a standalone launch, POST /logout signs out, and the
// page shows the patient in context. Against the sandbox: start this with the web-app client it
// prints as EHR A (its FHIR base URL, sandbox-web-app, its secret), then open the EHR launch URL
// it prints.
import { createServer } from 'node:http'
import { Client, ClientDirectory } from '@fhir-auth/client'
import { fetchRequestFrom, nodeHandler, smartWebApp } from '@fhir-auth/web'

/** One registration per EHR, from EHR_A_BASE_URL, EHR_A_CLIENT_ID, EHR_A_CLIENT_SECRET; B, C… */
function ehrClients(): Client[] {
  const clients: Client[] = []
  for (const letter of 'ABCDEFGHIJ') {
    const baseUrl = process.env[`EHR_${letter}_BASE_URL`]
    if (!baseUrl) break
    const clientConfig = {
      baseUrl,
      clientId: process.env[`EHR_${letter}_CLIENT_ID`],
      clientSecret: process.env[`EHR_${letter}_CLIENT_SECRET`],
      redirectUri: process.env.REDIRECT_URI, // http://localhost:3000/callback, for every EHR
      scopes: ['launch', 'launch/patient', 'patient/Patient.rs', 'openid', 'fhirUser'],
      allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true',
    }
    clients.push(new Client(clientConfig, { clientType: 'confidential_symmetric' }))
  }
  return clients
}

// An unknown iss is refused before anything is fetched; callbacks find their client by state.
// Several processes: new ClientDirectory({ clients, store: redisStore(redis) }).
const web = smartWebApp({ clients: new ClientDirectory({ clients: ehrClients() }) })
const routes = nodeHandler(web) // /launch, /login, /callback, /logout; the rest goes to next()

createServer((request, response) =>
  routes(request, response, async () => {
    const session = await web.session(fetchRequestFrom(request)).catch(() => undefined)
    if (session === undefined) {
      response.writeHead(401, { 'content-type': 'text/plain' })
      response.end('Not signed in: open this app from your EHR')
      return
    }
    const patient = await session.fetch(`Patient/${session.tokens.patient}`)
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.end(`patient ${session.tokens.patient}: ${JSON.stringify(await patient.json())}`)
  }),
).listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`EHR launch URL: http://localhost:${process.env.PORT ?? 3000}/launch`)
})
