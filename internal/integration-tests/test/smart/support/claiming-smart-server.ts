/**
 * A SMART server on loopback whose `smart-configuration` names whatever issuer a test makes it
 * claim — its own, its FHIR base URL, or another server's — and whose token endpoint answers any
 * code with tokens and an ID token it signs itself. The stand-in for an honest server with an
 * unusual issuer and for a hostile one (server B of the issuer binding tests, ADR 0013). It
 * sends no RFC 9207 `iss` itself: the test writes the callback.
 */

import type { KeyObject } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { jwt, otherRsa, rsa, rsaJwk } from '../design-8/support/signing-keys.js'
import { closeServer, listenOnLoopback } from './local-servers.js'

export interface ClaimingServerOptions {
  /** The `issuer` of the SMART configuration, given the server's origin. */
  readonly issuer: (origin: string) => string
  /** The `iss` of the ID tokens; default the claimed issuer. */
  readonly idTokenIssuer?: (origin: string) => string
  /** The key ID tokens are signed with and its public JWK (published at `/jwks`); default the RSA key `k1`. */
  readonly key?: { readonly privateKey: KeyObject; readonly jwk: Record<string, unknown> }
}

export interface ClaimingServer {
  readonly origin: string
  /** `${origin}/fhir`. */
  readonly fhirBaseUrl: string
  readonly claimedIssuer: string
  /** The nonce the next ID tokens carry (a test copies it from the authorization URL). */
  nonce: string | undefined
  /** Changes made to the claims of the next ID tokens. */
  claims: Record<string, unknown>
  /** The `kid` of the next ID tokens; default the published key's. */
  kid: string | undefined
  /** While set, `/jwks` is answered only once this settles (it counts the request at once). */
  jwksGate: Promise<void> | undefined
  /** `METHOD path` of every request, oldest first. */
  readonly requests: readonly string[]
  count(path: string): number
  close(): Promise<void>
}

/** Starts a {@link ClaimingServer} on `127.0.0.1`. */
export async function startClaimingServer(options: ClaimingServerOptions): Promise<ClaimingServer> {
  const key = options.key ?? { privateKey: rsa.privateKey, jwk: rsaJwk }
  const requests: string[] = []
  let origin = ''
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${new URL(request.url ?? '/', origin).pathname}`)
    answer(request, response)
  })
  origin = await listenOnLoopback(server)
  const claimedIssuer = options.issuer(origin)
  const state: ClaimingServer = {
    origin,
    fhirBaseUrl: `${origin}/fhir`,
    claimedIssuer,
    nonce: undefined,
    claims: {},
    kid: undefined,
    jwksGate: undefined,
    requests,
    count: (path) => requests.filter((line) => line.endsWith(` ${path}`)).length,
    close: () => closeServer(server),
  }
  const smartConfiguration = {
    issuer: claimedIssuer,
    jwks_uri: `${origin}/jwks`,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    grant_types_supported: ['authorization_code'],
    code_challenge_methods_supported: ['S256'],
    response_types_supported: ['code'],
    capabilities: ['launch-standalone', 'client-public', 'sso-openid-connect'],
    id_token_signing_alg_values_supported: ['RS256'],
  }
  function idToken(clientId: string): string {
    const now = Math.floor(Date.now() / 1000)
    const claims = {
      iss: options.idTokenIssuer?.(origin) ?? claimedIssuer,
      sub: 'user-of-this-server',
      aud: clientId,
      iat: now,
      exp: now + 300,
      ...(state.nonce === undefined ? {} : { nonce: state.nonce }),
      ...state.claims,
    }
    return jwt({ alg: 'RS256', kid: state.kid ?? key.jwk.kid, typ: 'JWT' }, claims, key.privateKey)
  }
  function answer(request: IncomingMessage, response: ServerResponse): void {
    const path = new URL(request.url ?? '/', origin).pathname
    const json = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    if (path === '/fhir/.well-known/smart-configuration') {
      json(smartConfiguration)
    } else if (path === '/jwks') {
      const answerKeys = () => json({ keys: [key.jwk] })
      if (state.jwksGate === undefined) answerKeys()
      else state.jwksGate.then(answerKeys, answerKeys)
    } else if (path === '/token' && request.method === 'POST') {
      let body = ''
      request.on('data', (chunk) => {
        body += chunk
      })
      request.on('end', () =>
        json({
          access_token: 'access-token-of-this-server',
          token_type: 'Bearer',
          expires_in: 3600,
          scope: 'openid fhirUser patient/*.rs',
          id_token: idToken(new URLSearchParams(body).get('client_id') ?? ''),
        }),
      )
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' })
      response.end('not found')
    }
  }
  return state
}

/**
 * Server B of the issuer binding tests (ADR 0013): claims `issuer` (an honest server's) in its
 * SMART configuration and signs its ID tokens with a key of its own (`kid` `b1`).
 */
export function startHostileServer(issuer: () => string): Promise<ClaimingServer> {
  return startClaimingServer({
    issuer,
    key: {
      privateKey: otherRsa.privateKey,
      jwk: { ...otherRsa.publicKey.export({ format: 'jwk' }), kid: 'b1', use: 'sig' },
    },
  })
}
