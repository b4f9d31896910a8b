// A standalone launch from a terminal: the user signs in (and picks a patient) at the server,
// pastes the address the browser lands on, and the program reads that patient. Against the
// sandbox: its base URL, public client `sandbox-public`, redirect URI https://app.example/callback.
import { stdin, stdout } from 'node:process'
import { createInterface } from 'node:readline/promises'
import { Client, memoryStore } from '@fhir-auth/client'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

const client = new Client({
  baseUrl: env('FHIR_BASE_URL'),
  clientId: env('CLIENT_ID'), // a public client: no secret
  redirectUri: env('REDIRECT_URI'),
  // launch/patient: the user picks a patient; openid fhirUser: who signed in.
  scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access'],
  allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true',
})
const store = memoryStore() // where the launch waits, keyed by state

const { authUrl } = await client.beginAuthorization({ store })
const terminal = createInterface({ input: stdin, output: stdout })
console.log(`Open this in a browser and sign in:\n${authUrl}`)
const callbackUrl = await terminal.question('Paste the address the browser was sent to: ')
terminal.close()

// Checks the callback (error, state, RFC 9207 iss, code), exchanges the code, validates the ID token.
const session = await client.completeAuthorization(callbackUrl.trim(), { store })
console.log(`signed in as ${session.tokens.fhirUser}, patient ${session.tokens.patient}`)
const response = await session.fetch(`Patient/${session.tokens.patient}`)
const patient = (await response.json()) as { id?: string }
console.log(`${response.status}: Patient ${patient.id}`)
