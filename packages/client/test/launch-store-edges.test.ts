/**
 * A launch kept in a store, through `beginAuthorization` and `completeAuthorization` (DESIGN §8):
 * a launch without `openid` (so without a nonce), the 600 s lifetime to the millisecond by the
 * client's clock, and what a store that misbehaves is told in its `StoreError`. Written for the
 * survivors of `pnpm test:mutation` in `src/launch/launch-record.ts` (docs/testing.md); the main
 * cases are in launch.test.ts.
 */
import {
  AuthorizationError,
  Client,
  type KeyValueStore,
  memoryStore,
  StoreError,
} from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { baseUrl, discoveryUrl, fakeServer, json, smartConfiguration } from './support.js'

const tokenUrl = smartConfiguration.token_endpoint
const began = new Date('2026-11-24T12:00:00Z')

/** A client whose clock the test sets, of a server that grants `at-1` for any code. */
function launchClient(scopes = ['launch/patient', 'patient/*.rs']) {
  const server = fakeServer({
    [discoveryUrl]: () => json(smartConfiguration),
    [tokenUrl]: () => json({ access_token: 'at-1', token_type: 'Bearer' }),
  })
  const clock = { now: began }
  const client = new Client(
    { baseUrl, clientId: 'app', redirectUri: 'https://app.example.org/cb', scopes },
    { fetch: server.fetch, now: () => clock.now, timeoutMs: 1_000 },
  )
  const callback = (state: string) => `https://app.example.org/cb?code=c1&state=${state}`
  return { client, clock, callback, tokenRequests: () => server.count(tokenUrl) }
}

describe('a launch kept in a store', () => {
  it('without openid (no nonce) completes', async () => {
    const { client, callback } = launchClient()
    const store = memoryStore()
    const { state } = await client.beginAuthorization({ store })
    const session = await client.completeAuthorization(callback(state), { store })
    expect(session.tokens.accessToken).toBe('at-1')
  })

  it('completes 600 s after it began by the client clock, and not a millisecond later', async () => {
    const onTime = launchClient()
    const store = memoryStore()
    const { state } = await onTime.client.beginAuthorization({ store })
    onTime.clock.now = new Date(began.getTime() + 600_000)
    await onTime.client.completeAuthorization(onTime.callback(state), { store })
    expect(onTime.tokenRequests()).toBe(1)

    const late = launchClient()
    const lateState = (await late.client.beginAuthorization({ store })).state
    late.clock.now = new Date(began.getTime() + 600_001)
    const error = await failureOf(
      late.client.completeAuthorization(late.callback(lateState), { store }),
      AuthorizationError,
    )
    expect(error.error).toBe('state_mismatch')
    expect(late.tokenRequests()).toBe(0)
  })
})

describe('a launch store that misbehaves is a StoreError saying what went wrong', () => {
  const failing = (operation: () => Promise<never>): KeyValueStore => ({
    get: operation,
    set: operation,
    delete: operation,
    setIfAbsent: operation,
    take: operation,
  })

  it('one that cannot keep the launch, or cannot return it', async () => {
    const { client, callback } = launchClient()
    const store = failing(async () => {
      throw new RangeError('quota')
    })
    const kept = await failureOf(client.beginAuthorization({ store }), StoreError)
    expect(kept.operation).toBe('set')
    expect(kept.message).toBe('the launch store failed to keep the launch (RangeError)')
    const returned = await failureOf(
      client.completeAuthorization(callback('s1'), { store }),
      StoreError,
    )
    expect(returned.operation).toBe('take')
    expect(returned.message).toBe('the launch store failed to return the launch (RangeError)')
  })

  it('one whose take returns something other than a string', async () => {
    const { client, callback } = launchClient()
    const store: KeyValueStore = { ...memoryStore(), take: async () => 42 as never }
    const error = await failureOf(
      client.completeAuthorization(callback('s1'), { store }),
      StoreError,
    )
    expect(error.operation).toBe('take')
    expect(error.message).toMatch(/the launch store returned a number, not a string/)
  })

  it('one without take whose setIfAbsent answers something other than a boolean', async () => {
    const { client, callback } = launchClient()
    const { take: _take, ...withoutTake } = memoryStore()
    const store: KeyValueStore = { ...withoutTake, setIfAbsent: async () => 'OK' as never }
    const error = await failureOf(
      client.completeAuthorization(callback('s1'), { store }),
      StoreError,
    )
    expect(error.operation).toBe('take')
    expect(error.message).toMatch(/the launch store's setIfAbsent gave a string/)
  })
})
