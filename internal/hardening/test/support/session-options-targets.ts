/**
 * The options objects of DESIGN §8's operations, as targets of `hostile-options.test.ts`:
 * `beginAuthorization`, `completeAuthorization` (with a store, and with the values the caller
 * kept), `resumeSession`, `validateIdToken`, and a session's `accessToken`, `refresh` and
 * `fetch` init. Each valid object succeeds against a scripted SMART server (for
 * `validateIdToken`, one that publishes the key an ID token was really signed with). An unknown
 * own member is refused as an unknown option, as for every `Client` operation (ADR 0008), except
 * in `fetch`'s init: a `RequestInit`, whose members are the platform's.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto'
import { Client, type KeyValueStore, memoryStore } from '@fhir-auth/client'
import type { FetchLike } from '@fhir-auth/core'
import {
  type ScriptedAnswer,
  scriptedFetch,
  validOpenIdConfiguration,
  validSmartConfiguration,
} from '../../src/index.js'
import { type OptionsResources, type OptionsTarget, optionsTimeoutMs } from './options-targets.js'

const origin = 'https://ehr.sessions.test'
const baseUrl = `${origin}/fhir`
const redirectUri = 'https://app.sessions.test/callback'
const clientId = 'session-options-app'

const json = (body: unknown): ScriptedAnswer => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})

/** The server's RS256 key, made once (RSA keys export as JWK safely on Node 20). */
let serverKey: { privateKey: KeyObject; jwk: Record<string, unknown> } | undefined
function signingKey() {
  if (serverKey === undefined) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    serverKey = { privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid: 'k1' } }
  }
  return serverKey
}

/** An ID token the scripted server's key really signed, for this client, with `nonce`. */
export function signedIdToken(claims: Record<string, unknown> = {}): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const now = Math.floor(Date.now() / 1000)
  const input = `${encode({ alg: 'RS256', kid: 'k1' })}.${encode({
    iss: origin,
    sub: 'user-1',
    aud: clientId,
    iat: now,
    exp: now + 300,
    auth_time: now,
    nonce: 'nonce-Wq3Er5Ty7Ui9',
    ...claims,
  })}`
  return `${input}.${sign('sha256', Buffer.from(input), signingKey().privateKey).toString('base64url')}`
}

/** A SMART server: discovery, a token endpoint, the key set, and one FHIR resource. */
const server = scriptedFetch((call) => {
  const url = call.url.split('?')[0] ?? ''
  if (url === `${baseUrl}/.well-known/smart-configuration`) {
    return json(validSmartConfiguration(origin))
  }
  if (url === `${origin}/.well-known/openid-configuration`) {
    return json(validOpenIdConfiguration(origin))
  }
  if (url === `${origin}/jwks`) return json({ keys: [signingKey().jwk] })
  if (url === `${origin}/token`) {
    return json({
      access_token: 'access-token-Zx8Cv6Bn4',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'launch/patient patient/*.rs offline_access',
      refresh_token: 'refresh-token-Gh5Jk3Lp1',
    })
  }
  if (url === `${baseUrl}/Patient/1`) return json({ resourceType: 'Patient', id: '1' })
  return { status: 404, body: '' }
})

/**
 * The targets. `resources` gives the shared crypto backend; the server is this file's own.
 */
export function createSessionOptionsTargets(
  resources: () => OptionsResources,
): readonly OptionsTarget[] {
  const fetch: FetchLike = (url, init) => server.fetch(url, init)
  const client = (
    scopes: readonly string[] = ['launch/patient', 'patient/*.rs', 'offline_access'],
  ) =>
    new Client(
      { baseUrl, clientId, redirectUri, scopes },
      { fetch, timeoutMs: optionsTimeoutMs, crypto: resources().crypto },
    )
  const session = () =>
    client().resumeSession({
      access_token: 'access-token-Qa1Ws2Ed3',
      refresh_token: 'refresh-token-Rf4Tg5Yh6',
      expires_in: 3600,
      scope: 'launch/patient patient/*.rs offline_access',
    })
  const signal = () => new AbortController().signal
  // completeAuthorization needs a launch the valid options can finish: every run begins one.
  let keptIn: KeyValueStore = memoryStore()
  let kept = { state: '', codeVerifier: '' }
  const callback = (state: string) => `${redirectUri}?code=code-Mn8Bv7Cx6&state=${state}`

  return [
    {
      name: 'Client (SMART) beginAuthorization',
      unknownMembers: 'unknown option',
      valid: () => ({
        store: memoryStore(),
        launch: 'launch-1',
        customScopes: ['launch', 'patient/*.rs'],
        method: 'post',
        signal: signal(),
      }),
      run: (options) => client().beginAuthorization(options as never),
    },
    {
      name: 'Client (SMART) completeAuthorization (store)',
      unknownMembers: 'unknown option',
      valid: () => {
        keptIn = memoryStore()
        return { store: keptIn, onTokens: async () => {}, signal: signal() }
      },
      run: async (options) => {
        const app = client()
        const { state } = await app.beginAuthorization({ store: keptIn })
        return app.completeAuthorization(callback(state), options as never)
      },
    },
    {
      name: 'Client (SMART) completeAuthorization (kept values)',
      unknownMembers: 'unknown option',
      valid: () => {
        kept = { state: 'state-Pl0Ok9Ij8Uh7', codeVerifier: 'v'.repeat(43) }
        return { ...kept, nonce: 'nonce-Yg6Tf5Rd4', signal: signal() }
      },
      run: (options) => client().completeAuthorization(callback(kept.state), options as never),
    },
    {
      name: 'Client (SMART) resumeSession',
      unknownMembers: 'unknown option',
      valid: () => ({ onTokens: async () => {} }),
      run: async (options) => {
        const resumed = client().resumeSession(
          { access_token: 'access-token-Es3Rd4Tf5', expires_in: 3600 },
          options as never,
        )
        return resumed.accessToken()
      },
    },
    {
      name: 'Client (SMART) validateIdToken',
      unknownMembers: 'unknown option',
      valid: () => ({ nonce: 'nonce-Wq3Er5Ty7Ui9', maxAgeSeconds: 600, signal: signal() }),
      run: (options) =>
        client(['openid', 'patient/*.rs']).validateIdToken(signedIdToken(), options as never),
    },
    {
      name: 'Session accessToken',
      unknownMembers: 'unknown option',
      valid: () => ({ minValiditySeconds: 30, signal: signal() }),
      run: (options) => session().accessToken(options as never),
    },
    {
      name: 'Session refresh',
      unknownMembers: 'unknown option',
      valid: () => ({ scopes: ['patient/*.rs'], signal: signal() }),
      run: (options) => session().refresh(options as never),
    },
    {
      name: 'Session fetch init',
      unknownMembers: 'ignored',
      valid: () => ({
        method: 'GET',
        headers: { accept: 'application/fhir+json' },
        signal: signal(),
      }),
      run: (options) => session().fetch('Patient/1', options as never),
    },
  ]
}
