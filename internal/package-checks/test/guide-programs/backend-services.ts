// SMART Backend Services: a token with a signed assertion, then one FHIR read with it.
// Against the sandbox: the values `npx -y pnpm@10 sandbox` prints for its backend client.
import { readFileSync } from 'node:fs'
import { Client } from '@fhir-auth/client'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

const client = new Client(
  {
    baseUrl: env('FHIR_BASE_URL'), // e.g. http://127.0.0.1:<port>/fhir
    clientId: env('CLIENT_ID'), // sandbox-backend
    privateKey: readFileSync(env('PRIVATE_KEY_FILE'), 'utf8'), // PEM: RSA → RS384, P-384 → ES384
    kid: env('KID'), // the kid of the public key the server registered
    scopes: ['system/Patient.rs'],
    allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true', // sandbox only
  },
  { clientType: 'confidential_asymmetric' },
)

const token = await client.requestBackendToken()
console.log(`granted ${token.scope} for ${token.expires_in} s`)

const response = await fetch(`${env('FHIR_BASE_URL')}/Patient/patient-1`, {
  headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/fhir+json' },
})
const patient = (await response.json()) as { id?: string }
console.log(`${response.status}: Patient ${patient.id}`)
