/**
 * `ClientDirectory` through real servers: an honest oidc-provider sandbox (EHR A) and a hostile
 * loopback server (EHR B) that claims A's issuer, both clients of one directory sharing one
 * store and one redirect URI. Launches are routed by `state` to the client that began them,
 * with that client's issuer binding (ADR 0013), so B cannot mix up launches; an `iss` no client
 * answers to is refused before any request on any server.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9207 RFC 9207
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#launch-app-ehr-launch SMART EHR launch
 */
import {
  AuthorizationError,
  Client,
  ClientDirectory,
  ConfigurationError,
  memoryStore,
} from '@fhir-auth/client'
import { sandboxDefaultRedirectUri } from '@fhir-auth/sandbox'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type ClaimingServer,
  startClaimingServer,
  startHostileServer,
} from './support/claiming-smart-server.js'
import { rejectionOf, requestsTo } from './support/flows.js'
import {
  appClient,
  clientIds,
  type SmartFixture,
  standaloneScopes,
  startSmartFixture,
} from './support/smart-fixture.js'

let honest: SmartFixture
/** EHR B: claims A's issuer, with its own endpoints and key set. */
let hostile: ClaimingServer
/** A server no client of the directory is for: the `iss` a stranger writes. */
let stranger: ClaimingServer

beforeAll(async () => {
  honest = await startSmartFixture({ standalonePatient: 'patient-7' })
  hostile = await startHostileServer(() => honest.sandbox.issuer)
  stranger = await startClaimingServer({ issuer: (origin) => origin })
})

afterAll(async () => {
  await Promise.all([honest?.sandbox.close(), hostile?.close(), stranger?.close()])
})

beforeEach(() => honest.sandbox.clearRequests())

/** The public app's client for B: the same client id and redirect URI as A's. */
function hostileClient(): Client {
  return new Client({
    baseUrl: hostile.fhirBaseUrl,
    clientId: clientIds.public,
    redirectUri: sandboxDefaultRedirectUri,
    scopes: standaloneScopes,
    allowInsecureLocalhost: true,
  })
}

/** A directory of A (the public app) and B, on one store. */
function directory(store = memoryStore()) {
  return new ClientDirectory({ clients: [appClient(honest, 'public'), hostileClient()], store })
}

/** Every request every server received. */
function allRequests(): number {
  return honest.sandbox.requests.length + hostile.requests.length + stranger.requests.length
}

describe('a hostile EHR B in the directory that claims honest EHR A’s issuer', () => {
  it('A’s callback (code and iss = A) for a launch begun with B is routed to B’s client: iss_mismatch, no token request anywhere', async () => {
    const ehrs = directory()
    const begun = await ehrs.beginAuthorization({ iss: hostile.fhirBaseUrl })
    // B forwards the user to A with the launch's own state, PKCE challenge and nonce.
    const forwarded = new URL(honest.sandbox.endpoints.authorization)
    forwarded.search = new URL(begun.authUrl).search
    forwarded.searchParams.set('aud', honest.sandbox.fhirBaseUrl)
    const fromA = await honest.sandbox.authorize({ url: forwarded.href })
    expect(fromA.redirectUrl?.searchParams.get('iss')).toBe(honest.sandbox.issuer)
    honest.sandbox.clearRequests()

    const error = await rejectionOf(ehrs.completeAuthorization(fromA.redirectUrl?.href ?? ''))

    expect(error).toBeInstanceOf(AuthorizationError)
    expect((error as AuthorizationError).error).toBe('iss_mismatch')
    expect(hostile.count('/token')).toBe(0)
    expect(requestsTo(honest.sandbox, honest.sandbox.endpoints.token)).toHaveLength(0)
  })

  it('A’s own launches complete through the directory, and its session is opened and signed out by A’s client', async () => {
    const store = memoryStore()
    const ehrs = directory(store)
    const begun = await ehrs.beginAuthorization({ iss: `${honest.sandbox.fhirBaseUrl}/` })
    const fromA = await honest.sandbox.authorize({ url: begun.authUrl })
    const session = await ehrs.completeAuthorization(fromA.redirectUrl?.href ?? '')
    expect(session.tokens.idTokenClaims?.iss).toBe(honest.sandbox.issuer)

    // Another process: a directory on the same store that finds A only through resolve.
    const resolved: string[] = []
    const elsewhere = new ClientDirectory({
      store,
      resolve: (iss) => {
        resolved.push(iss)
        return iss === honest.sandbox.fhirBaseUrl ? appClient(honest, 'public') : undefined
      },
    })
    const id = await ehrs.sessions().save(session)
    const opened = await elsewhere.sessions().open(id)
    expect(resolved).toEqual([honest.sandbox.fhirBaseUrl])
    expect((await opened?.fetch('Patient/patient-7'))?.status).toBe(200)
    expect(hostile.requests.filter((line) => !line.includes('smart-configuration'))).toEqual([])

    await expect(elsewhere.sessions().signOut(id)).resolves.toBe(true)
    expect(requestsTo(honest.sandbox, honest.sandbox.endpoints.revocation)).toHaveLength(2)
    await expect(ehrs.sessions().open(id)).resolves.toBeUndefined()
  })

  it('a launch begun in one process completes in another that resolves its client from the launch record', async () => {
    const store = memoryStore()
    const begun = await directory(store).beginAuthorization({ iss: honest.sandbox.fhirBaseUrl })
    const fromA = await honest.sandbox.authorize({ url: begun.authUrl })
    const elsewhere = new ClientDirectory({ store, resolve: () => appClient(honest, 'public') })
    const session = await elsewhere.completeAuthorization(fromA.redirectUrl?.href ?? '')
    expect(session.tokens.patient).toBe('patient-7')
  })
})

describe('refused before any request', () => {
  it('an iss no client answers to: ConfigurationError naming it; no server receives anything, resolve is asked once', async () => {
    const before = allRequests()
    const asked: string[] = []
    const ehrs = new ClientDirectory({
      clients: [appClient(honest, 'public'), hostileClient()],
      resolve: (iss) => {
        asked.push(iss)
        return undefined
      },
    })
    for (const iss of [
      stranger.fhirBaseUrl,
      `${honest.sandbox.fhirBaseUrl}//`,
      `${honest.sandbox.fhirBaseUrl}/Patient`,
    ]) {
      const error = await rejectionOf(ehrs.beginAuthorization({ iss }))
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('iss')
      expect((error as Error).message).toContain(iss.replace(/\/$/, ''))
    }
    expect(asked).toHaveLength(3)
    expect(allRequests()).toBe(before)
  })

  it('a callback whose state is unknown, or whose launch another client began: state_mismatch, no token request', async () => {
    const store = memoryStore()
    const ehrs = directory(store)
    const before = allRequests()
    const unknown = new URL(sandboxDefaultRedirectUri)
    unknown.searchParams.set('code', 'a-code')
    unknown.searchParams.set('state', 'a-state-nobody-kept')
    const error = await rejectionOf(ehrs.completeAuthorization(unknown))
    expect((error as AuthorizationError).error).toBe('state_mismatch')
    expect(allRequests()).toBe(before)

    // B's launch, on the shared store and redirect URI, handed to A's client directly.
    const begun = await ehrs.beginAuthorization({ iss: hostile.fhirBaseUrl })
    const callback = new URL(sandboxDefaultRedirectUri)
    callback.searchParams.set('code', 'code-from-b')
    callback.searchParams.set('state', begun.state)
    honest.sandbox.clearRequests()
    const mixed = await rejectionOf(
      appClient(honest, 'public').completeAuthorization(callback, { store }),
    )
    expect(mixed).toBeInstanceOf(AuthorizationError)
    expect((mixed as AuthorizationError).error).toBe('state_mismatch')
    expect(requestsTo(honest.sandbox, honest.sandbox.endpoints.token)).toHaveLength(0)
    expect(hostile.count('/token')).toBe(0)
  })
})
