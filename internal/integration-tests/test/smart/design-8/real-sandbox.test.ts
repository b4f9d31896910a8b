/**
 * DESIGN §8 probe, end to end against the real SMART sandbox (oidc-provider on loopback): a
 * launch finished into a session that reads the patient, a replayed callback refused without a
 * token request, refresh-token rotation with `onTokens` awaited, and refresh-and-retry on a 401.
 * Written from DESIGN's words only, driving the public entries as a black box.
 */
import { type Client, type KeyValueStore, memoryStore } from '@fhir-auth/client'
import { rejectionOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestsTo } from '../support/flows.js'
import { appClient, type SmartFixture, startSmartFixture } from '../support/smart-fixture.js'
import { authorizationErrorOf } from './support/probe-client.js'

describe('§8 against the real SMART sandbox', () => {
  let fixture: SmartFixture
  beforeAll(async () => {
    fixture = await startSmartFixture({ standalonePatient: 'patient-8' })
  })
  afterAll(async () => {
    await fixture?.sandbox.close()
  })

  async function realLaunch(client: Client, store: KeyValueStore) {
    const begun = await client.beginAuthorization({ store })
    const result = await fixture.sandbox.authorize({ url: begun.authUrl })
    if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
    return result.redirectUrl.href
  }
  const tokenCount = () => requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token).length

  it('finishes a launch, reads the patient, refuses a replay without a token request', async () => {
    const client = appClient(fixture, 'public')
    const store = memoryStore()
    const callbackUrl = await realLaunch(client, store)
    expect(new URL(callbackUrl).searchParams.get('iss')).toBe(fixture.sandbox.issuer)
    const before = tokenCount()
    const session = await client.completeAuthorization(callbackUrl, { store })
    expect(tokenCount()).toBe(before + 1)
    expect(session.tokens.patient).toBe('patient-8')
    expect(session.tokens.idTokenClaims?.iss).toBe(fixture.sandbox.issuer)
    expect(typeof session.tokens.fhirUser).toBe('string')
    const response = await session.fetch('Patient/patient-8')
    expect(response.status).toBe(200)
    const replay = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(callbackUrl, { store })),
    )
    expect(replay.error).toBe('state_mismatch')
    expect(tokenCount()).toBe(before + 1)
  })

  it('refreshes with rotation, awaits onTokens, and the rotated token works again', async () => {
    const client = appClient(fixture, 'symmetric')
    const store = memoryStore()
    const callbackUrl = await realLaunch(client, store)
    const persisted: string[] = []
    const session = await client.completeAuthorization(callbackUrl, {
      store,
      onTokens: async (tokens) => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        persisted.push(tokens.serialize())
      },
    })
    const first = session.tokens.refreshToken
    await session.refresh()
    expect(persisted).toHaveLength(1)
    const second = session.tokens.refreshToken
    await session.refresh()
    expect(persisted).toHaveLength(2)
    expect(typeof first).toBe('string')
    expect(typeof second).toBe('string')
    const resumed = client.resumeSession(String(persisted.at(-1)))
    const response = await resumed.fetch('Patient/patient-8')
    expect(response.status).toBe(200)
  })

  it('on a 401 from the FHIR server the session refreshes and retries', async () => {
    const client = appClient(fixture, 'public')
    const store = memoryStore()
    const callbackUrl = await realLaunch(client, store)
    const session = await client.completeAuthorization(callbackUrl, { store })
    // a session resumed with a dead access token but a live refresh token
    const dead = client.resumeSession({
      ...session.tokens.raw,
      access_token: 'revoked-access-token',
    })
    const response = await dead.fetch('Patient/patient-8')
    expect(response.status).toBe(200)
    expect(dead.tokens.accessToken).not.toBe('revoked-access-token')
  })
})
