// A session over time: sign in once, keep the tokens (here in a file, in an app the user's
// server-side session), and resume them in a later run, which refreshes them when they are
// about to expire and writes the rotated ones back. Against the sandbox: its base URL, public
// client `sandbox-public` and redirect URI https://app.example/callback.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { stdin, stdout } from 'node:process'
import { createInterface } from 'node:readline/promises'
import { Client, memoryStore, type TokenSet } from '@fhir-auth/client'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

const client = new Client({
  baseUrl: env('FHIR_BASE_URL'),
  clientId: env('CLIENT_ID'),
  redirectUri: env('REDIRECT_URI'),
  scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access'],
  allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true',
})
// serialize() holds the tokens: keep the file where only this user can read it.
const sessionFile = process.env.SESSION_FILE ?? 'session.json'
const save = (serialized: string) => writeFileSync(sessionFile, serialized, { mode: 0o600 })

async function signIn(): Promise<TokenSet> {
  const store = memoryStore()
  const { authUrl } = await client.beginAuthorization({ store })
  const terminal = createInterface({ input: stdin, output: stdout })
  console.log(`Open this in a browser and sign in:\n${authUrl}`)
  const callbackUrl = await terminal.question('Paste the address the browser was sent to: ')
  terminal.close()
  const session = await client.completeAuthorization(callbackUrl.trim(), { store })
  save(session.tokens.serialize())
  return session.tokens
}

// A later run resumes what the file holds: accessToken() and fetch() refresh first when the
// token is about to expire, and onTokens writes the new (rotated) tokens back.
const session = client.resumeSession(
  existsSync(sessionFile) ? readFileSync(sessionFile, 'utf8') : await signIn(),
  { onTokens: (tokens) => save(tokens.serialize()) },
)
console.log(`patient ${session.tokens.patient}, token valid until ${session.tokens.expiresAt}`)
const response = await session.fetch(`Patient/${session.tokens.patient}`)
console.log(response.status)
await session.refresh() // refresh now, e.g. before a long job; onTokens saves the result
console.log(`refreshed: valid until ${session.tokens.expiresAt}`)
