// SMART scopes as data: what a launch asks for, what the server granted (compared by meaning),
// a read only when the grant allows it, and a refresh that narrows the grant. Against the
// sandbox: its base URL, public client `sandbox-public`, redirect URI https://app.example/callback.
import { stdin, stdout } from 'node:process'
import { createInterface } from 'node:readline/promises'
import { Client, ConfigurationError, memoryStore, parseScopes } from '@fhir-auth/client'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

const wanted = [
  'launch/patient',
  'patient/Patient.rs',
  'patient/Observation.rs?category=laboratory', // laboratory results only (SMART v2)
  'openid',
  'fhirUser',
  'offline_access',
]
const asked = parseScopes(wanted)
for (const scope of asked.resources) {
  const restricted = scope.query.map(([name, value]) => ` where ${name}=${value}`).join('')
  console.log(
    `asks ${scope.context}/${scope.resourceType}.${[...scope.interactions].join('')}${restricted}`,
  )
}

const client = new Client(
  {
    baseUrl: env('FHIR_BASE_URL'),
    clientId: env('CLIENT_ID'),
    redirectUri: env('REDIRECT_URI'),
    scopes: wanted,
    allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true',
  },
  // v1 scopes to a server that advertises permission-v1 only, v2 to one with permission-v2 only.
  { scopeVersion: 'auto' },
)
const store = memoryStore()
const { authUrl } = await client.beginAuthorization({ store })
const terminal = createInterface({ input: stdin, output: stdout })
console.log(`Open this in a browser and sign in:\n${authUrl}`)
const callbackUrl = await terminal.question('Paste the address the browser was sent to: ')
terminal.close()
const session = await client.completeAuthorization(callbackUrl.trim(), { store })

// Servers may grant less than asked (the client also logs a scope.narrowed warning then).
const granted = session.tokens.grantedScopes
const { missing } = asked.compare(granted)
console.log(missing.length === 0 ? 'granted all it asked' : `not granted: ${missing.join(' ')}`)
if (granted.allows('patient', 'Patient', 'r')) {
  const response = await session.fetch(`Patient/${session.tokens.patient}`)
  console.log(`${response.status}: Patient ${session.tokens.patient}`)
}

// A refresh may narrow the grant, never widen it: outside the grant nothing is sent.
const narrowed = await session.refresh({ scopes: ['patient/Patient.rs', 'offline_access'] })
console.log(`refreshed with ${narrowed.scopes.join(' ')}`)
try {
  await session.refresh({ scopes: ['patient/Condition.rs'] })
} catch (error) {
  if (!(error instanceof ConfigurationError)) throw error
  console.log(`refused before sending: ${error.message}`)
}
