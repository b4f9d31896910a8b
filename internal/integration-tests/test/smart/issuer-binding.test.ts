/**
 * The issuer a SMART configuration names is used — for RFC 9207's `iss`, the ID token `iss` and
 * its keys — only when it is bound to the server (ADR 0013): configured, the FHIR base URL, or
 * vouched for by its own openid-configuration. Through `Client`, against an honest oidc-provider
 * sandbox (server A) and loopback servers that claim an issuer of the test's choosing, among
 * them a hostile server B that claims A's.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9207 RFC 9207
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfigurationValidation OIDC Discovery §4.3
 */
import {
  AuthorizationError,
  Client,
  type ClientConfigInput,
  IdTokenError,
  memoryStore,
} from '@fhir-auth/client'
import { sandboxDefaultRedirectUri } from '@fhir-auth/sandbox'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type ClaimingServer,
  startClaimingServer,
  startHostileServer,
} from './support/claiming-smart-server.js'
import { requestsTo } from './support/flows.js'
import {
  appClient,
  clientIds,
  type SmartFixture,
  standaloneScopes,
  startSmartFixture,
} from './support/smart-fixture.js'

let honest: SmartFixture
/** Server B: claims A's issuer, with its own endpoints and its own key set. */
let hostile: ClaimingServer
const servers: ClaimingServer[] = []

beforeAll(async () => {
  honest = await startSmartFixture()
  hostile = await startHostileServer(() => honest.sandbox.issuer)
})

afterEach(() => honest.sandbox.setDiscoveryOverride(undefined))

afterAll(async () => {
  await Promise.all([honest?.sandbox.close(), hostile?.close(), ...servers.map((s) => s.close())])
})

async function claiming(issuer: (origin: string) => string): Promise<ClaimingServer> {
  const server = await startClaimingServer({ issuer })
  servers.push(server)
  return server
}

/** A public app's client for the SMART server at `fhirBaseUrl`. */
function clientFor(fhirBaseUrl: string, overrides: ClientConfigInput = {}): Client {
  return new Client({
    baseUrl: fhirBaseUrl,
    clientId: clientIds.public,
    redirectUri: sandboxDefaultRedirectUri,
    scopes: standaloneScopes,
    allowInsecureLocalhost: true,
    ...overrides,
  })
}

/** A launch begun at a claiming server, and the callback it would send (with `iss` when given). */
async function launchAt(server: ClaimingServer, client: Client, iss?: string) {
  const store = memoryStore()
  const begun = await client.beginAuthorization({ store })
  const request = new URL(begun.authUrl)
  server.nonce = request.searchParams.get('nonce') ?? undefined
  const callback = new URL(sandboxDefaultRedirectUri)
  callback.searchParams.set('code', 'code-from-this-server')
  callback.searchParams.set('state', begun.state)
  if (iss !== undefined) callback.searchParams.set('iss', iss)
  return { complete: () => client.completeAuthorization(callback.href, { store }) }
}

const isError =
  <T extends new (...args: never[]) => Error>(
    type: T,
    check: (error: InstanceType<T>) => boolean,
  ) =>
  (error: unknown) =>
    error instanceof type && check(error as InstanceType<T>)

describe('a hostile server B that claims honest server A’s issuer', () => {
  it('(i) A’s callback (code and iss = A) for a launch begun at B is iss_mismatch; B’s token endpoint receives nothing', async () => {
    const client = clientFor(hostile.fhirBaseUrl)
    const store = memoryStore()
    const begun = await client.beginAuthorization({ store })
    // B forwards the user to A with the launch's own state, PKCE challenge and nonce.
    const forwarded = new URL(honest.sandbox.endpoints.authorization)
    forwarded.search = new URL(begun.authUrl).search
    forwarded.searchParams.set('aud', honest.sandbox.fhirBaseUrl)
    const fromA = await honest.sandbox.authorize({ url: forwarded.href })
    expect(fromA.code).toBeTypeOf('string')
    expect(fromA.redirectUrl?.searchParams.get('iss')).toBe(honest.sandbox.issuer)
    honest.sandbox.clearRequests()

    await expect(
      client.completeAuthorization(fromA.redirectUrl?.href ?? '', { store }),
    ).rejects.toSatisfy(
      isError(
        AuthorizationError,
        (error) =>
          error.error === 'iss_mismatch' &&
          error.message.includes('is not bound to this server') &&
          error.message.includes('names another authorization_endpoint'),
      ),
    )
    expect(hostile.count('/token')).toBe(0)
    expect(requestsTo(honest.sandbox, honest.sandbox.endpoints.token)).toHaveLength(0)
    // The only question asked of A: whether it vouches for B's endpoints.
    expect(honest.sandbox.requests.map((request) => request.path)).toEqual([
      '/.well-known/openid-configuration',
    ])
  })

  it('(ii) B-signed ID tokens with iss = A are refused (iss); B’s key set is never read', async () => {
    const client = clientFor(hostile.fhirBaseUrl)
    const jwksBefore = hostile.count('/jwks')
    const launch = await launchAt(hostile, client)
    await expect(launch.complete()).rejects.toSatisfy(
      isError(
        IdTokenError,
        (error) => error.reason === 'iss' && error.message.includes('is not bound to this server'),
      ),
    )
    expect(hostile.count('/jwks')).toBe(jwksBefore)
  })
})

describe('the three ways an issuer is bound', () => {
  it('(a) the configured issuer: its callbacks and ID tokens are accepted, and nothing else is asked', async () => {
    const server = await claiming((origin) => `${origin}/oauth`)
    const client = clientFor(server.fhirBaseUrl, { issuer: server.claimedIssuer })
    const session = await (await launchAt(server, client, server.claimedIssuer)).complete()
    expect(session.tokens.idTokenClaims?.iss).toBe(server.claimedIssuer)
    expect(server.count('/oauth/.well-known/openid-configuration')).toBe(0)
    // Not configured, the same issuer is bound by nothing: its iss fails RFC 9207.
    const unconfigured = clientFor(server.fhirBaseUrl)
    await expect(
      (await launchAt(server, unconfigured, server.claimedIssuer)).complete(),
    ).rejects.toSatisfy(
      isError(
        AuthorizationError,
        (error) =>
          error.error === 'iss_mismatch' &&
          error.message.includes('its openid-configuration could not be read'),
      ),
    )
    expect(server.count('/token')).toBe(1)
  })

  it('(b) the FHIR base URL, a trailing / insignificant: accepted without asking anything else', async () => {
    const server = await claiming((origin) => `${origin}/fhir/`)
    const client = clientFor(server.fhirBaseUrl)
    const session = await (await launchAt(server, client, `${server.fhirBaseUrl}/`)).complete()
    expect(session.tokens.idTokenClaims?.iss).toBe(`${server.fhirBaseUrl}/`)
    expect(server.requests.filter((line) => line.includes('openid-configuration'))).toEqual([])
  })

  it('(c) an openid-configuration that names the same endpoints: A’s own launches complete', async () => {
    honest.sandbox.clearRequests()
    const client = appClient(honest, 'public')
    const store = memoryStore()
    const begun = await client.beginAuthorization({ store })
    const result = await honest.sandbox.authorize({ url: begun.authUrl })
    const session = await client.completeAuthorization(result.redirectUrl?.href ?? '', { store })
    expect(session.tokens.idTokenClaims?.iss).toBe(honest.sandbox.issuer)
    expect(
      requestsTo(honest.sandbox, `${honest.sandbox.issuer}/.well-known/openid-configuration`),
    ).toHaveLength(1)
  })

  it('(c) refused when the openid-configuration names another token endpoint: iss_mismatch, no token request', async () => {
    honest.sandbox.setDiscoveryOverride({
      document: (document) => ({ ...document, token_endpoint: `${honest.sandbox.origin}/b/token` }),
    })
    const client = appClient(honest, 'public')
    const store = memoryStore()
    const begun = await client.beginAuthorization({ store })
    const result = await honest.sandbox.authorize({ url: begun.authUrl })
    honest.sandbox.clearRequests()
    await expect(
      client.completeAuthorization(result.redirectUrl?.href ?? '', { store }),
    ).rejects.toSatisfy(
      isError(
        AuthorizationError,
        (error) =>
          error.error === 'iss_mismatch' && error.message.includes('names another token_endpoint'),
      ),
    )
    const paths = honest.sandbox.requests.map((request) => request.path)
    expect(paths).toEqual(['/.well-known/openid-configuration'])
  })
})
