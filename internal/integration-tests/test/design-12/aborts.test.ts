/**
 * DESIGN §12 "Aborts": a signal already aborted rejects at once with no request sent; no promise
 * the library creates is ever left rejected without a handler. Also §12 "Options": `signal` must
 * be an `AbortSignal`.
 */
import { ConfigurationError } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import {
  abortable,
  base,
  discoveryUrl,
  json,
  recordUnhandledRejections,
  rejectionOf,
  rsaPrivateKeyPem,
  sent,
  settle,
  slow,
  smartClient,
  smartDocument,
  smartOperations,
  smartServer,
  tokenBody,
  tokenUrl,
} from './support/index.js'

const unhandled = recordUnhandledRejections()

/** An asymmetric backend-services client of the fake server (`timeoutMs` when given). */
function backendClient(fetch: Parameters<typeof smartClient>[0], timeoutMs?: number) {
  return smartClient(
    fetch,
    { privateKey: rsaPrivateKeyPem(), kid: 'kid-1', scopes: ['system/*.rs'] },
    { clientType: 'confidential_asymmetric', ...(timeoutMs === undefined ? {} : { timeoutMs }) },
  )
}

/** Lets the slow answers (40 ms) arrive and every rejection settle, then checks none was unhandled. */
async function expectNoUnhandledRejection(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 80))
  await settle()
  expect(unhandled.reasons).toEqual([])
}

describe('DESIGN §12: a signal already aborted rejects at once with no request sent', () => {
  for (const operation of smartOperations) {
    it(`${operation.name}`, async () => {
      const server = smartServer()
      const client = smartClient(server.fetch, operation.config, operation.options)
      const controller = new AbortController()
      controller.abort(new Error('caller gave up'))
      const error = await rejectionOf(operation.run(client, controller.signal))
      expect((error as Error).message).toMatch(/abort/i)
      expect(sent(server.requests)).toEqual([])
      await settle()
      // Not later either: an abort is not a request deferred to the background.
      expect(sent(server.requests)).toEqual([])
      expect(unhandled.reasons).toEqual([])
    })
  }
})

describe('DESIGN §12: `signal` must be an AbortSignal (ConfigurationError on signal, nothing sent)', () => {
  const notSignals: ReadonlyArray<[string, unknown]> = [
    [
      'a plain look-alike object',
      { aborted: false, addEventListener() {}, removeEventListener() {} },
    ],
    ['a string', 'abort'],
    ['an AbortController', new AbortController()],
  ]
  // session.fetch / backendTokens().fetch take a RequestInit, not library options: left out here.
  const withOptions = smartOperations.filter((operation) => !operation.name.includes('fetch'))
  for (const operation of withOptions) {
    for (const [label, value] of notSignals) {
      it(`${operation.name} with ${label}`, async () => {
        const server = smartServer()
        const client = smartClient(server.fetch, operation.config, operation.options)
        const error = await rejectionOf(operation.run(client, value as AbortSignal))
        expect(error).toBeInstanceOf(ConfigurationError)
        expect((error as ConfigurationError).invalidAttribute).toBe('signal')
        expect(sent(server.requests)).toEqual([])
      })
    }
  }
})

describe('DESIGN §12: no unhandled rejection, whatever the caller aborts', () => {
  it('abort while discovery fails (one caller of two aborts; the shared discovery then fails)', async () => {
    const server = smartServer({
      [discoveryUrl]: slow(40, () => new Response('down', { status: 500 })),
    })
    const client = smartClient(server.fetch)
    const controller = new AbortController()
    const first = rejectionOf(client.authorizationUrl({ signal: controller.signal }))
    const second = rejectionOf(client.serverMetadata())
    setTimeout(() => controller.abort(), 5)
    const [a, b] = await Promise.all([first, second])
    expect(a).toBeDefined()
    expect(b).toBeDefined()
    await settle()
    expect(unhandled.reasons).toEqual([])
  })

  it('every caller of a failing shared discovery aborts before it fails', async () => {
    const server = smartServer({
      [discoveryUrl]: slow(40, () => new Response('down', { status: 503 })),
    })
    const client = smartClient(server.fetch)
    const controllers = [new AbortController(), new AbortController(), new AbortController()]
    const calls = [
      rejectionOf(client.serverMetadata({ signal: controllers[0]?.signal })),
      rejectionOf(client.authorizationUrl({ signal: controllers[1]?.signal })),
      rejectionOf(
        client.refreshToken({ refreshToken: 'refresh-123456789', signal: controllers[2]?.signal }),
      ),
    ]
    setTimeout(() => {
      for (const controller of controllers) controller.abort()
    }, 5)
    expect((await Promise.all(calls)).every((error) => error !== undefined)).toBe(true)
    await expectNoUnhandledRejection()
  })

  it('abort during a token request whose server then answers an error', async () => {
    const server = smartServer({
      [tokenUrl]: slow(40, () => json({ error: 'invalid_grant' }, 400)),
    })
    const client = smartClient(server.fetch)
    await client.serverMetadata()
    const controller = new AbortController()
    const call = rejectionOf(
      client.requestAccessToken({
        code: 'code-123456789',
        codeVerifier: 'v'.repeat(43),
        signal: controller.signal,
      }),
    )
    setTimeout(() => controller.abort(), 5)
    expect(await call).toBeDefined()
    await expectNoUnhandledRejection()
  })

  it('abort during a shared session refresh that then fails, while a second caller waits', async () => {
    const server = smartServer({
      [tokenUrl]: slow(40, () => json({ error: 'invalid_grant' }, 400)),
    })
    const client = smartClient(server.fetch)
    const session = client.resumeSession({ ...tokenBody(), expires_in: 0 })
    const controller = new AbortController()
    const aborted = rejectionOf(session.accessToken({ signal: controller.signal }))
    const other = rejectionOf(session.refresh())
    setTimeout(() => controller.abort(), 5)
    const [a, b] = await Promise.all([aborted, other])
    expect(a).toBeDefined()
    expect(b).toBeDefined()
    await expectNoUnhandledRejection()
    expect(server.count(tokenUrl)).toBe(1)
  })

  it('the only waiter of a session refresh aborts, then the refresh fails', async () => {
    const server = smartServer({
      [tokenUrl]: slow(40, () => json({ error: 'invalid_grant' }, 400)),
    })
    const session = smartClient(server.fetch).resumeSession({ ...tokenBody(), expires_in: 0 })
    const controller = new AbortController()
    const aborted = rejectionOf(session.fetch(`${base}/Patient/1`, { signal: controller.signal }))
    setTimeout(() => controller.abort(), 5)
    expect(await aborted).toBeDefined()
    await expectNoUnhandledRejection()
  })

  it('abort during a backendTokens shared request that then fails', async () => {
    const server = smartServer({
      [tokenUrl]: slow(40, () => json({ error: 'invalid_client' }, 401)),
    })
    const client = backendClient(server.fetch)
    const tokens = client.backendTokens()
    const controller = new AbortController()
    const aborted = rejectionOf(tokens.fetch(`${base}/Patient/1`, { signal: controller.signal }))
    const other = rejectionOf(tokens.accessToken())
    setTimeout(() => controller.abort(), 5)
    const [a, b] = await Promise.all([aborted, other])
    expect(a).toBeDefined()
    expect(b).toBeDefined()
    await expectNoUnhandledRejection()
  })

  it('the only backendTokens caller aborts, then the shared request fails', async () => {
    const server = smartServer({
      [tokenUrl]: slow(40, () => json({ error: 'invalid_client' }, 401)),
    })
    const client = backendClient(server.fetch)
    const controller = new AbortController()
    const aborted = rejectionOf(
      client.backendTokens().fetch(`${base}/Patient/1`, { signal: controller.signal }),
    )
    setTimeout(() => controller.abort(), 5)
    expect(await aborted).toBeDefined()
    await expectNoUnhandledRejection()
  })

  it('abort during discovery where fetch honours the signal, caller never awaits a second call', async () => {
    const server = smartServer({ [discoveryUrl]: abortable(1_000, () => json(smartDocument)) })
    const client = smartClient(server.fetch)
    const controller = new AbortController()
    const call = rejectionOf(client.beginAuthorization({ signal: controller.signal }))
    setTimeout(() => controller.abort(), 5)
    expect(await call).toBeDefined()
    await settle()
    expect(unhandled.reasons).toEqual([])
  })

  it('a fire-and-forget backendTokens handle whose token request fails is not an unhandled rejection by itself', async () => {
    const server = smartServer({ [tokenUrl]: () => json({ error: 'invalid_client' }, 401) })
    const client = backendClient(server.fetch)
    client.backendTokens()
    await settle()
    expect(unhandled.reasons).toEqual([])
    expect(server.requests).toEqual([])
  })

  it('abort during a backendTokens request whose shared store fails on every call', async () => {
    const failing = {
      get: () => Promise.reject(new Error('store down')),
      set: () => Promise.reject(new Error('store down')),
      delete: () => Promise.reject(new Error('store down')),
      setIfAbsent: () => Promise.reject(new Error('store down')),
    }
    const server = smartServer({
      [tokenUrl]: slow(40, () => json({ error: 'invalid_client' }, 401)),
    })
    const client = backendClient(server.fetch, 200)
    const tokens = client.backendTokens({ store: failing })
    const controller = new AbortController()
    const aborted = rejectionOf(tokens.fetch(`${base}/Patient/1`, { signal: controller.signal }))
    setTimeout(() => controller.abort(), 5)
    expect(await aborted).toBeDefined()
    await new Promise((resolve) => setTimeout(resolve, 600))
    await settle()
    expect(unhandled.reasons).toEqual([])
  })

  it('abort during a backendTokens request whose shared store hangs', async () => {
    const hanging = {
      get: () => new Promise<string | undefined>(() => {}),
      set: () => new Promise<void>(() => {}),
      delete: () => new Promise<void>(() => {}),
      setIfAbsent: () => new Promise<boolean>(() => {}),
    }
    const server = smartServer()
    const client = backendClient(server.fetch, 100)
    const controller = new AbortController()
    const aborted = rejectionOf(
      client
        .backendTokens({ store: hanging })
        .fetch(`${base}/Patient/1`, { signal: controller.signal }),
    )
    setTimeout(() => controller.abort(), 5)
    expect(await aborted).toBeDefined()
    await new Promise((resolve) => setTimeout(resolve, 500))
    await settle()
    expect(unhandled.reasons).toEqual([])
  })
})
