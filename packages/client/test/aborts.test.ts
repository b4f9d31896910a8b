import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Client, DiscoveryError, memoryStore, silentLogger, TokenError } from '../src/index.js'
import {
  baseUrl,
  discoveryUrl,
  fakeServer,
  json,
  rejection,
  smartConfiguration,
} from './support.js'

const launchConfig = {
  baseUrl,
  clientId: 'app',
  redirectUri: 'https://app.example.org/cb',
  scopes: ['launch/patient', 'patient/*.rs'],
}

/** Rejections nobody handled while a test ran (Node would end the process for each by default). */
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
beforeEach(() => {
  unhandled.length = 0
  process.on('unhandledRejection', onUnhandled)
})
afterEach(async () => {
  // Rejection events are delivered after the microtask queue drains.
  await new Promise((resolve) => setTimeout(resolve, 20))
  process.off('unhandledRejection', onUnhandled)
  expect(unhandled).toEqual([])
})

/** A discovery that answers 503 after `delayMs`. */
function failingDiscovery(delayMs: number) {
  return fakeServer({
    [discoveryUrl]: () =>
      new Promise<Response>((resolve) =>
        setTimeout(() => resolve(new Response('down', { status: 503 })), delayMs),
      ),
  })
}

describe('a signal that is already aborted', () => {
  it('rejects authorizationUrl at once, sends nothing, and leaves no rejection unhandled while discovery would fail', async () => {
    const server = failingDiscovery(0)
    const client = new Client(launchConfig, { fetch: server.fetch, logger: silentLogger })
    const error = await rejection(client.authorizationUrl({ signal: AbortSignal.abort() }))
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(error.cause).toMatchObject({ reason: 'aborted' })
    expect(server.requests).toHaveLength(0)
  })

  it('rejects serverMetadata and the token operations without a request', async () => {
    const server = failingDiscovery(0)
    const client = new Client(launchConfig, { fetch: server.fetch, logger: silentLogger })
    const signal = AbortSignal.abort()
    for (const call of [
      () => client.serverMetadata({ signal }),
      () => client.requestAccessToken({ code: 'c0de-value', codeVerifier: 'v'.repeat(43), signal }),
      () => client.refreshToken({ refreshToken: 'refresh-value', signal }),
    ]) {
      expect(await rejection(call())).toBeInstanceOf(DiscoveryError)
    }
    const configured = new Client(
      { ...launchConfig, tokenEndpoint: smartConfiguration.token_endpoint },
      { fetch: server.fetch, logger: silentLogger },
    )
    const tokenError = await rejection(
      configured.requestAccessToken({ code: 'c0de-value', codeVerifier: 'v'.repeat(43), signal }),
    )
    expect(tokenError).toBeInstanceOf(TokenError)
    expect(tokenError.cause).toMatchObject({ reason: 'aborted' })
    expect(server.requests).toHaveLength(0)
  })

  it('does not stop a discovery another caller is waiting for', async () => {
    const server = fakeServer({ [discoveryUrl]: () => json(smartConfiguration) })
    const client = new Client(launchConfig, { fetch: server.fetch, logger: silentLogger })
    const waiting = client.serverMetadata()
    const aborted = rejection(client.serverMetadata({ signal: AbortSignal.abort() }))
    expect((await waiting).tokenEndpoint).toBe(smartConfiguration.token_endpoint)
    expect(await aborted).toBeInstanceOf(DiscoveryError)
    expect(server.requests).toHaveLength(1)
  })
})

describe('a caller that aborts while discovery is in flight', () => {
  it('is rejected at once; the shared discovery failing later is not an unhandled rejection', async () => {
    const server = failingDiscovery(200)
    const client = new Client(launchConfig, { fetch: server.fetch, logger: silentLogger })
    const controller = new AbortController()
    const pending = rejection(client.authorizationUrl({ signal: controller.signal }))
    // The SMART implementation loads on the first operation: abort once discovery is in flight.
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { interval: 1, timeout: 5_000 })
    controller.abort()
    const error = await pending
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(error.cause).toMatchObject({ reason: 'aborted' })
    // Past the shared discovery's failure: an unhandled rejection would fail the run here.
    await new Promise((resolve) => setTimeout(resolve, 250))
    expect(server.requests).toHaveLength(1)
  })
})

describe('the first operation of a client, while its implementation loads (ADR 0012)', () => {
  it('a caller that aborts in the same tick is rejected and has sent nothing', async () => {
    const server = failingDiscovery(0)
    const client = new Client(launchConfig, { fetch: server.fetch, logger: silentLogger })
    const controller = new AbortController()
    const pending = rejection(client.authorizationUrl({ signal: controller.signal }))
    controller.abort()
    const error = await pending
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(error.cause).toMatchObject({ reason: 'aborted' })
    expect(server.requests).toHaveLength(0)
  })

  it('concurrent first operations share one implementation and one discovery', async () => {
    const server = fakeServer({ [discoveryUrl]: () => json(smartConfiguration) })
    const client = new Client(launchConfig, { fetch: server.fetch, logger: silentLogger })
    const [metadata, first, second] = await Promise.all([
      client.serverMetadata(),
      client.authorizationUrl(),
      client.beginAuthorization({ store: memoryStore() }),
    ])
    expect(metadata.authorizationEndpoint).toBe(smartConfiguration.authorization_endpoint)
    expect(first.state).not.toBe(second.state)
    expect(server.requests).toHaveLength(1)
  })
})
