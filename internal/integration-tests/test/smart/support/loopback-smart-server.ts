/**
 * A SMART server on loopback HTTP for the session rules: its SMART configuration names itself as
 * issuer (the FHIR base URL, so the issuer is bound) and a key set served by a server of its own
 * that a test can stop (a JWKS outage). The token endpoint answers the code exchange and every
 * refresh as the test says — by default rotating refresh tokens and sending a valid ID token
 * each time — and records every request, so a test can count what was sent.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { jwt, rsaJwk } from '../design-8/support/signing-keys.js'
import { closeServer, listenOnLoopback } from './local-servers.js'

export const loopbackClientId = 'loopback-app'
export const loopbackRedirectUri = 'https://app.example.org/callback'
export const loopbackNonce = 'nonce-of-the-launch-0123456789'
export const loopbackSubject = 'user-1'

/** What the token endpoint received: the form, in order. */
export type TokenRequestForm = Readonly<Record<string, string>>

/** Answers one token request: the JSON body (status 200), after `delayMs` when given. */
export type TokenAnswer = (
  form: TokenRequestForm,
  server: LoopbackSmartServer,
) => { readonly body: Record<string, unknown>; readonly delayMs?: number }

export interface LoopbackSmartServer {
  /** The FHIR base URL, also the issuer: `http://127.0.0.1:<port>/fhir`. */
  readonly baseUrl: string
  readonly tokenEndpoint: string
  readonly jwksUri: string
  /** Every token request's form, in order. */
  readonly tokenRequests: TokenRequestForm[]
  /** The `Authorization` header of every FHIR request, in order. */
  readonly fhirAuthorizations: (string | undefined)[]
  /** Every request of any kind (discovery, token, FHIR, key set). */
  requestCount(): number
  /** How the token endpoint answers; replace it to change the answers. */
  answer: TokenAnswer
  /** A valid ID token of this server for the client, with `changes` applied (`undefined` drops). */
  idToken(changes?: Record<string, unknown>): string
  /** Stops the key set server: every later key set fetch fails (connection refused). */
  stopKeySet(): Promise<void>
  close(): Promise<void>
}

/** Rotating answers: `at-<n>` / `rt-<n>` for the n-th token request, with a valid ID token. */
export const rotatingAnswer: TokenAnswer = (form, server) => {
  const n = server.tokenRequests.length
  return {
    body: {
      access_token: `at-${n}`,
      token_type: 'Bearer',
      expires_in: 3600,
      scope: form.scope ?? 'openid fhirUser patient/*.rs offline_access',
      refresh_token: `rt-${n}`,
      id_token: server.idToken(
        form.grant_type === 'authorization_code' ? { nonce: loopbackNonce } : {},
      ),
    },
  }
}

export async function startLoopbackSmartServer(): Promise<LoopbackSmartServer> {
  let requests = 0
  const keySetServer = createServer((_request, response) => {
    requests += 1
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ keys: [{ ...rsaJwk, alg: 'RS256' }] }))
  })
  const keySetOrigin = await listenOnLoopback(keySetServer)
  let keySetStopped: Promise<void> | undefined
  const server: Server = createServer((request, response) => {
    requests += 1
    void handle(request).then(
      ({ status, body }) => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(JSON.stringify(body))
      },
      () => {
        response.writeHead(500)
        response.end()
      },
    )
  })
  const origin = await listenOnLoopback(server)
  const baseUrl = `${origin}/fhir`
  const smart: LoopbackSmartServer = {
    baseUrl,
    tokenEndpoint: `${origin}/token`,
    jwksUri: `${keySetOrigin}/jwks`,
    tokenRequests: [],
    fhirAuthorizations: [],
    requestCount: () => requests,
    answer: rotatingAnswer,
    idToken(changes = {}) {
      const now = Math.floor(Date.now() / 1000)
      const claims: Record<string, unknown> = {
        iss: baseUrl,
        sub: loopbackSubject,
        aud: loopbackClientId,
        iat: now,
        exp: now + 600,
        fhirUser: `${baseUrl}/Practitioner/${loopbackSubject}`,
        ...changes,
      }
      for (const [name, value] of Object.entries(changes)) {
        if (value === undefined) delete claims[name]
      }
      return jwt({ alg: 'RS256', kid: rsaJwk.kid }, claims)
    },
    stopKeySet() {
      keySetStopped ??= closeServer(keySetServer)
      return keySetStopped
    },
    async close() {
      await Promise.all([closeServer(server), smart.stopKeySet()])
    },
  }

  async function handle(
    request: IncomingMessage,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const path = new URL(request.url ?? '/', origin).pathname
    if (path === '/fhir/.well-known/smart-configuration') {
      return {
        status: 200,
        body: {
          issuer: baseUrl,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: smart.tokenEndpoint,
          jwks_uri: smart.jwksUri,
          id_token_signing_alg_values_supported: ['RS256'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          capabilities: ['launch-standalone', 'client-public', 'sso-openid-connect'],
        },
      }
    }
    if (path === '/token' && request.method === 'POST') {
      const form = Object.fromEntries(new URLSearchParams(await bodyOf(request)))
      smart.tokenRequests.push(form)
      const { body, delayMs } = smart.answer(form, smart)
      if (delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, delayMs))
      return { status: 200, body }
    }
    if (path.startsWith('/fhir/')) {
      smart.fhirAuthorizations.push(request.headers.authorization)
      return { status: 200, body: { resourceType: 'Patient', id: 'p-1' } }
    }
    return { status: 404, body: {} }
  }

  return smart
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
