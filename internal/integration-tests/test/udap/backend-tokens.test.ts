/**
 * `client.backendTokens` (DESIGN §9) for UDAP client credentials against the strict UDAP
 * sandbox: one cache entry per token endpoint, client, scopes and the whole `hl7-b2b` context —
 * an access token may only be used in the context it was asked for, so two contexts are two
 * tokens, while the same context written in another key order is one; reuse, renewal by the
 * injected clock (the server's clock moves with it), `fetch` with its one renewal on a 401, and
 * `invalidate()`. Token requests are counted at the server.
 */
import {
  type B2bAuthorizationExtension,
  type Client,
  type KeyValueStore,
  memoryStore,
} from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientAssertionOf, requestsTo } from './support/sandbox-requests.js'
import {
  b2bContext,
  clientCredentialsRegistration,
  createUdapClient,
  expectedB2bExtension,
  identityOf,
  type TrustInputs,
  treatmentPurpose,
  trustInputsOf,
} from './support/udap-test-context.js'

const clientUri = 'https://client.example.test/backend-tokens'
const lifetimeSeconds = 300

/** One clock for the client and the server: moving it lets tokens expire without waiting. */
let offsetMs = 0
const now = () => new Date(Date.now() + offsetMs)

let sandbox: UdapSandbox
let trust: TrustInputs
let certificate: IssuedCertificate
let clientId: string

beforeAll(async () => {
  sandbox = await startUdapSandbox({ now, accessTokenLifetimeSeconds: lifetimeSeconds })
  trust = trustInputsOf(sandbox.trust)
  certificate = await sandbox.certificateAuthority.issue({
    commonName: 'Backend tokens client',
    sanUris: [clientUri],
    keyType: 'p256',
  })
  const registered = await client().registerClient(clientCredentialsRegistration, {
    clientUri,
    ...trust,
  })
  clientId = registered.client_id
})
afterAll(() => sandbox?.close())

/** A registered UDAP client on the shared clock (a new `Client`: its own memory). */
function client(): Client {
  return createUdapClient(
    sandbox,
    identityOf(certificate),
    { now },
    clientId === undefined ? {} : { clientId },
  )
}

const tokenRequests = () => requestsTo(sandbox, '/token')
const b2bOf = (index: number) => {
  const request = tokenRequests().at(index)
  if (request === undefined) throw new Error(`no token request ${index}`)
  return (decodeJwt(clientAssertionOf(request)).extensions as Record<string, unknown>)['hl7-b2b']
}

const otherOrganization: B2bAuthorizationExtension = {
  ...b2bContext,
  organizationId: 'https://org.example.test/organizations/77',
}

describe('backendTokens with UDAP client credentials', () => {
  it('concurrent callers share one token request carrying the hl7-b2b context; the token reads data', async () => {
    const tokens = client().backendTokens({ b2b: b2bContext, ...trust })
    const before = tokenRequests().length
    const got = await Promise.all(Array.from({ length: 30 }, () => tokens.accessToken()))
    expect(new Set(got).size).toBe(1)
    expect(await tokens.accessToken()).toBe(got[0])
    expect(tokenRequests().length - before).toBe(1)
    expect(b2bOf(-1)).toEqual(expectedB2bExtension)
    expect((await tokens.fetch('Patient/patient-1')).status).toBe(200)
    expect(tokenRequests().length - before).toBe(1)
  })

  it('two hl7-b2b contexts are two tokens, each asked for in its own context', async () => {
    const shared = client()
    const before = tokenRequests().length
    const forTreatment = shared.backendTokens({ b2b: b2bContext, ...trust })
    const forAnotherOrganization = shared.backendTokens({ b2b: otherOrganization, ...trust })
    const forAnotherPurpose = shared.backendTokens({
      b2b: { ...b2bContext, purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#HPAYMT'] },
      ...trust,
    })
    const [a, b, c] = await Promise.all([
      forTreatment.accessToken(),
      forAnotherOrganization.accessToken(),
      forAnotherPurpose.accessToken(),
    ])
    expect(new Set([a, b, c]).size).toBe(3)
    expect(tokenRequests().length - before).toBe(3)
    const sent = [b2bOf(-3), b2bOf(-2), b2bOf(-1)].map(
      (b2b) =>
        `${(b2b as Record<string, unknown>).organization_id} ${(b2b as Record<string, unknown>).purpose_of_use}`,
    )
    expect(sent.sort()).toEqual(
      [
        `${b2bContext.organizationId} ${treatmentPurpose}`,
        `${otherOrganization.organizationId} ${treatmentPurpose}`,
        `${b2bContext.organizationId} urn:oid:2.16.840.1.113883.5.8#HPAYMT`,
      ].sort(),
    )
    // Each handle keeps its own token.
    expect(await forTreatment.accessToken()).toBe(a)
    expect(await forAnotherOrganization.accessToken()).toBe(b)
    expect(tokenRequests().length - before).toBe(3)
  })

  it('asks in the context it was made with, whatever the caller does to its b2b object afterwards', async () => {
    const shared = client()
    const context = { ...b2bContext, purposeOfUse: [...b2bContext.purposeOfUse] }
    const forTreatment = shared.backendTokens({ b2b: context, ...trust })
    // An app reusing its object for the next context, before and after this handle's first token.
    context.purposeOfUse[0] = 'urn:oid:2.16.840.1.113883.5.8#HPAYMT'
    const before = tokenRequests().length
    const first = await forTreatment.accessToken()
    expect(b2bOf(-1)).toEqual(expectedB2bExtension)
    context.organizationId = otherOrganization.organizationId
    await forTreatment.invalidate()
    const second = await forTreatment.accessToken()
    expect(second).not.toBe(first)
    expect(b2bOf(-1)).toEqual(expectedB2bExtension)
    // The treatment entry holds a treatment token: a new handle for that context reuses it.
    expect(await shared.backendTokens({ b2b: b2bContext, ...trust }).accessToken()).toBe(second)
    expect(tokenRequests().length - before).toBe(2)
  })

  it('the same context with its members in another order is the same token', async () => {
    const shared = client()
    const reordered = {
      purposeOfUse: [...(b2bContext.purposeOfUse ?? [])],
      organizationName: b2bContext.organizationName,
      organizationId: b2bContext.organizationId,
    } as B2bAuthorizationExtension
    expect(Object.keys(reordered)).not.toEqual(Object.keys(b2bContext))
    const before = tokenRequests().length
    const [a, b] = await Promise.all([
      shared.backendTokens({ b2b: b2bContext, ...trust }).accessToken(),
      shared.backendTokens({ ...trust, b2b: reordered }).accessToken(),
    ])
    expect(a).toBe(b)
    expect(tokenRequests().length - before).toBe(1)
  })

  it('a fleet sharing a store shares the token of a context, never across contexts', async () => {
    const store = memoryStore()
    const before = tokenRequests().length
    const processes = Array.from({ length: 4 }, () => client())
    const same = await Promise.all(
      processes.map((each) =>
        each.backendTokens({ b2b: b2bContext, store, ...trust }).accessToken(),
      ),
    )
    const other = await client()
      .backendTokens({ b2b: otherOrganization, store, ...trust })
      .accessToken()
    expect(new Set(same).size).toBe(1)
    expect(other).not.toBe(same[0])
    expect(tokenRequests().length - before).toBe(2)
  })

  it('renews at expiresAt − minValiditySeconds by the injected clock', async () => {
    const tokens = client().backendTokens({ b2b: b2bContext, ...trust, minValiditySeconds: 30 })
    const before = tokenRequests().length
    const first = await tokens.accessToken()
    try {
      offsetMs += (lifetimeSeconds - 30 - 1) * 1000
      expect(await tokens.accessToken()).toBe(first)
      offsetMs += 2_000
      const second = await tokens.accessToken()
      expect(second).not.toBe(first)
      expect(tokenRequests().length - before).toBe(2)
      expect((await tokens.fetch('Patient/patient-1')).status).toBe(200)
    } finally {
      offsetMs = 0
    }
  })

  it('fetch: a 401 to a stored token drops it, renews once in the same context, and retries', async () => {
    const inner = memoryStore()
    const written: string[] = []
    const store: KeyValueStore = {
      get: (key) => inner.get(key),
      set: (key, value, ttl) => {
        written.push(key)
        return inner.set(key, value, ttl)
      },
      delete: (key) => inner.delete(key),
      setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
    }
    const tokens = client().backendTokens({ b2b: b2bContext, store, ...trust })
    await tokens.accessToken()
    const key = written.find((name) => name.startsWith('fhir-auth:backend-token:')) as string
    const record = JSON.parse((await inner.get(key)) as string)
    await inner.set(key, JSON.stringify({ ...record, accessToken: 'revoked-elsewhere' }), 300)
    const before = tokenRequests().length
    const since = sandbox.requests.length
    const response = await client()
      .backendTokens({ b2b: b2bContext, store, ...trust })
      .fetch('Patient/patient-1')
    expect(response.status).toBe(200)
    const reads = sandbox.requests.slice(since).filter((r) => r.path.includes('/Patient/'))
    expect(reads.map((read) => read.headers.authorization)).toEqual([
      'Bearer revoked-elsewhere',
      expect.not.stringContaining('revoked-elsewhere'),
    ])
    expect(tokenRequests().length - before).toBe(1)
    expect(b2bOf(-1)).toEqual(expectedB2bExtension)
  })

  it('invalidate() makes the next call ask again', async () => {
    const tokens = client().backendTokens({ b2b: b2bContext, ...trust })
    const before = tokenRequests().length
    const first = await tokens.accessToken()
    await tokens.invalidate()
    expect(await tokens.accessToken()).not.toBe(first)
    expect(tokenRequests().length - before).toBe(2)
  })
})
