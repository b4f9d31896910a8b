/**
 * DESIGN §8 probe, `completeAuthorization`'s checks: an `error` parameter, then state (unknown,
 * expired, used), RFC 9207 `iss`, `code`, in that order; the record deleted before the exchange
 * (single use, also under concurrent callbacks); no token request when a check fails; no secret
 * in errors or logs; caller-kept launches and arguments of the wrong type. Written from DESIGN's
 * words only, driving the public entries as a black box.
 */
import {
  AuthorizationError,
  ConfigurationError,
  FhirAuthError,
  IdTokenError,
  type KeyValueStore,
  memoryStore,
  Session,
  TokenError,
} from '@fhir-auth/client'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { failureOf, rejectionOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { callbackUrl, ISSUER, json } from './support/fake-smart-server.js'
import {
  authorizationErrorOf,
  begin,
  beginLaunch,
  freshProbe,
  probeClient,
} from './support/probe-client.js'
import { renderingsOf } from './support/renderings.js'
import { spyStore } from './support/spy-store.js'

describe('§8 completeAuthorization checks', () => {
  it('an error parameter is an AuthorizationError with error, errorDescription, errorUri, state (before the state check)', async () => {
    const { server, client } = freshProbe()
    const store = memoryStore()
    const url = callbackUrl({
      error: 'access_denied',
      error_description: 'The user said no',
      error_uri: 'https://auth.example.org/errors/denied',
      state: 'unknown-state-value',
    })
    const error = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(url, { store })),
    )
    expect(error.error).toBe('access_denied')
    expect(error.errorDescription).toBe('The user said no')
    expect(error.errorUri).toBe('https://auth.example.org/errors/denied')
    expect(error.state).toBe('unknown-state-value')
    expect(error).toBeInstanceOf(FhirAuthError)
    expect(typeof error.code).toBe('string')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('an error parameter wins over a wrong iss and a missing code', async () => {
    const { server, callback, refusal } = await beginLaunch()
    const error = await refusal(
      callback({ error: 'server_error', iss: 'https://evil.example', code: undefined }),
    )
    expect(error.error).toBe('server_error')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it.each([
    ['no state', { state: undefined }],
    ['an unknown state', { state: 'never-issued' }],
    ['an empty state', { state: '' }],
  ])('%s is state_mismatch and no token request', async (_name, params) => {
    const { server, callback, refusal } = await beginLaunch()
    const error = await refusal(callback(params))
    expect(error.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('a record older than 600 s is state_mismatch; one younger is accepted', async () => {
    const { server, client } = freshProbe()
    const store = memoryStore({ now: server.clock.now })
    const old = await begin(client, server, store)
    server.clock.advance(601)
    const error = await old.refusal(old.callback())
    expect(error.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)

    const young = await begin(client, server, store)
    server.clock.advance(590)
    const session = await client.completeAuthorization(young.callback(), { store })
    expect(session.tokens.accessToken).toBe('at-1')
  })

  it('the library judges the 600 s itself even when the store keeps the record longer', async () => {
    // the store's own clock never moves: it would keep the record forever
    const { server, callback, refusal } = await beginLaunch()
    server.clock.advance(601)
    const error = await refusal(callback())
    expect(error.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('an iss other than the server issuer is iss_mismatch and no token request', async () => {
    const { server, callback, refusal } = await beginLaunch()
    const error = await refusal(callback({ iss: 'https://evil.example' }))
    expect(error.error).toBe('iss_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('an iss that differs only by a trailing slash or case is still iss_mismatch (RFC 9207 simple string comparison)', async () => {
    const { server, client } = freshProbe()
    for (const iss of [`${ISSUER}/`, ISSUER.toUpperCase()]) {
      const { callback, refusal } = await begin(client, server, memoryStore())
      const error = await refusal(callback({ iss }))
      expect(error.error).toBe('iss_mismatch')
    }
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('no iss at all is accepted', async () => {
    const { client, store, callback } = await beginLaunch()
    const session = await client.completeAuthorization(callback({ iss: undefined }), { store })
    expect(session.tokens.accessToken).toBe('at-1')
  })

  it('no code is missing_code and no token request', async () => {
    const { server, callback, refusal } = await beginLaunch()
    const error = await refusal(callback({ code: undefined }))
    expect(error.error).toBe('missing_code')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('order: state before iss, iss before code', async () => {
    const { server, callback, refusal } = await beginLaunch()
    const bad = callback({ iss: 'https://evil.example', state: 'unknown', code: undefined })
    expect((await refusal(bad)).error).toBe('state_mismatch')
    const issAndCode = callback({ iss: 'https://evil.example', code: undefined })
    expect((await refusal(issAndCode)).error).toBe('iss_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('a replayed callback fails on state after a success (one token request)', async () => {
    const { server, client, store, callback, refusal } = await beginLaunch()
    await client.completeAuthorization(callback(), { store })
    const error = await refusal(callback())
    expect(error.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(1)
  })

  it('the record is deleted before the exchange: a failed exchange cannot be replayed', async () => {
    const { server, client, store, callback, refusal } = await beginLaunch({
      codeAnswer: () => json({ error: 'invalid_grant', error_description: 'bad code' }, 400),
    })
    const first = await failureOf(client.completeAuthorization(callback(), { store }), TokenError)
    expect(first.error).toBe('invalid_grant')
    const second = await refusal(callback())
    expect(second.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(1)
  })

  it('the record is gone from the store by the time the token request is sent', async () => {
    let seenDuringExchange: unknown = 'not-called'
    const { store, calls, writes } = spyStore()
    let recordKey = ''
    const { server, client } = freshProbe({
      codeAnswer: (srv) => {
        // synchronous peek at what the spy saw: a delete or take of the key must precede this
        seenDuringExchange = calls.some(
          (call) =>
            (call.method === 'delete' || call.method === 'take') && call.args[0] === recordKey,
        )
        return srv.codeResponse()
      },
    })
    const { callback } = await begin(client, server, store)
    recordKey = String(writes()[0]?.args[0])
    await client.completeAuthorization(callback(), { store })
    expect(seenDuringExchange).toBe(true)
    expect(await store.get(recordKey)).toBeFalsy()
  })

  it('two concurrent completeAuthorization calls with one callback: exactly one wins, one token request', async () => {
    const { server, client, store, callback } = await beginLaunch()
    const results = await Promise.allSettled([
      client.completeAuthorization(callback(), { store }),
      client.completeAuthorization(callback(), { store }),
    ])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    const failed = results.find((result) => result.status === 'rejected')
    expect(authorizationErrorOf(failed?.reason).error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(1)
  })

  it('exactly one wins even with a store without take (get then delete, slow)', async () => {
    const inner = memoryStore()
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5))
    const slow: KeyValueStore = {
      get: async (key) => {
        const value = await inner.get(key)
        await pause()
        return value
      },
      set: (key, value, ttl) => inner.set(key, value, ttl),
      delete: async (key) => {
        await pause()
        await inner.delete(key)
      },
      setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
    }
    const { server, client } = freshProbe()
    const { callback } = await begin(client, server, slow)
    const results = await Promise.allSettled([
      client.completeAuthorization(callback(), { store: slow }),
      client.completeAuthorization(callback(), { store: slow }),
      client.completeAuthorization(callback(), { store: slow }),
    ])
    expect({
      fulfilled: results.filter((result) => result.status === 'fulfilled').length,
      tokenRequests: server.tokenRequests().length,
    }).toEqual({ fulfilled: 1, tokenRequests: 1 })
  })

  it('refuses a callback with a duplicated state or code, sending no token request', async () => {
    const { server, client } = freshProbe()
    for (const name of ['state', 'code']) {
      const store = memoryStore()
      const { callback } = await begin(client, server, store)
      const url = new URL(callback())
      url.searchParams.append(name, name === 'state' ? 'other-state' : 'other-code')
      const error = await rejectionOf(client.completeAuthorization(url.href, { store }))
      expect(error).toBeInstanceOf(AuthorizationError)
    }
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it.each([
    ['right then foreign', [ISSUER, 'https://evil.example']],
    ['foreign then right', ['https://evil.example', ISSUER]],
    ['foreign twice', ['https://evil.example', 'https://evil.example']],
  ])(
    'an iss given twice (%s) is not accepted: a present iss that is not the issuer',
    async (_n, values) => {
      const { server, client, store, callback } = await beginLaunch()
      const url = new URL(callback({ iss: undefined }))
      for (const value of values) url.searchParams.append('iss', value)
      const error = await rejectionOf(client.completeAuthorization(url.href, { store }))
      expect(error).toBeInstanceOf(AuthorizationError)
      expect(server.tokenRequests()).toHaveLength(0)
    },
  )

  it.each([
    ['state_mismatch', { state: 'unknown' }, false],
    ['iss_mismatch', { iss: 'https://evil.example' }, false],
  ])('an AuthorizationError (%s) shows no part of the code', async (_name, params, _x) => {
    const { callback, refusal } = await beginLaunch()
    const code = 'SECRETCODE-0123456789abcdef'
    const error = await refusal(callback({ code, ...params }))
    expect(renderingsOf(error)).not.toContain('SECRETCODE')
  })

  it('a whole launch, refresh and fetch log no code, verifier or token', async () => {
    const logger = createCapturingLogger()
    const { server, client } = freshProbe(
      { codeAnswer: (srv) => srv.codeResponse({ expires_in: 10 }) },
      { logger },
    )
    const { store, keptRecord } = spyStore()
    const { callback } = await begin(client, server, store)
    const record = keptRecord() as { codeVerifier: string }
    const session = await client.completeAuthorization(callback({ code: 'SECRETCODE-abcdef' }), {
      store,
    })
    await session.fetch('Patient/1')
    await session.refresh()
    const lines = logger.renderedLines().join('\n')
    expect(logger.entries.length).toBeGreaterThan(0)
    for (const secret of ['SECRETCODE', record.codeVerifier, 'at-1', 'rt-1', 'at-r1', 'rt-r1']) {
      expect(lines).not.toContain(secret)
    }
  })

  it('a URL object and a relative callback path are read, or refused with a typed error', async () => {
    const { server, client } = freshProbe()
    const store = memoryStore()
    const asUrl = await begin(client, server, store)
    const session = await client.completeAuthorization(new URL(asUrl.callback()) as never, {
      store,
    })
    expect(session.tokens.accessToken).toBe('at-1')
    const relative = await begin(client, server, store)
    const path = new URL(relative.callback())
    const outcome = await client
      .completeAuthorization(`${path.pathname}${path.search}`, { store })
      .then(
        (value) => value,
        (error: unknown) => error,
      )
    expect(outcome instanceof Session || outcome instanceof FhirAuthError).toBe(true)
  })

  it.each([
    ['a number', 42],
    ['null', null],
    ['an object', { code: 'x' }],
    ['garbage', 'http://[::1'],
  ])('a callbackUrl that is %s is a ConfigurationError, nothing sent', async (_name, value) => {
    const { server, client } = freshProbe()
    const error = await rejectionOf(
      client.completeAuthorization(value as never, { store: memoryStore() }),
    )
    expect(error).toBeInstanceOf(FhirAuthError)
    expect(error).not.toBeInstanceOf(TypeError)
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('a store whose take/get throws gives a typed error with no secret, and no token request', async () => {
    const { server, client, store: inner, callback, begun } = await beginLaunch()
    const broken: KeyValueStore = {
      get: async () => {
        throw new Error(`boom ${begun.state}`)
      },
      set: inner.set,
      delete: inner.delete,
      setIfAbsent: inner.setIfAbsent,
      take: async () => {
        throw new Error(`boom ${begun.state}`)
      },
    }
    const error = await rejectionOf(client.completeAuthorization(callback(), { store: broken }))
    expect(error).toBeInstanceOf(FhirAuthError)
    expect(renderingsOf(error)).not.toContain('code-1')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it.each([
    ['a number', 42],
    ['an object', { state: 'x' }],
    ['a non-JSON string', 'not json'],
    ['JSON of another shape', '{"hello":"world"}'],
    ['a record for another state', 'OTHER'],
  ])(
    'a store that returns %s for the record gives a typed error, no token request',
    async (_n, v) => {
      const { server, client } = freshProbe()
      const inner = memoryStore()
      const other = await begin(client, server, inner)
      const { callback } = await begin(client, server, inner)
      const value =
        v === 'OTHER'
          ? JSON.stringify({ state: other.begun.state, codeVerifier: 'v'.repeat(43) })
          : v
      const odd: KeyValueStore = {
        get: async () => value as never,
        set: inner.set,
        delete: async () => undefined,
        setIfAbsent: inner.setIfAbsent,
        take: async () => value as never,
      }
      const error = await rejectionOf(client.completeAuthorization(callback(), { store: odd }))
      expect(error).toBeInstanceOf(FhirAuthError)
      expect(server.tokenRequests()).toHaveLength(0)
    },
  )

  it('caller-kept launch: { state, codeVerifier, nonce } works; a callback with another state is state_mismatch', async () => {
    const { server, client } = freshProbe()
    const begun = await client.beginAuthorization()
    server.authorize(begun.authUrl)
    const kept = {
      state: begun.state,
      codeVerifier: String(begun.codeVerifier),
      nonce: server.nonce,
    }
    const wrong = callbackUrl({ code: 'c', state: 'forged', iss: ISSUER })
    const error = authorizationErrorOf(await rejectionOf(client.completeAuthorization(wrong, kept)))
    expect(error.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)
    const right = callbackUrl({ code: 'c', state: begun.state, iss: ISSUER })
    const session = await client.completeAuthorization(right, kept)
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
  })

  it("without a store (Node), the launch is kept in the process's memoryStore: another Client of the process completes it from the URL alone, once", async () => {
    const { server, client } = freshProbe()
    const begun = await client.beginAuthorization()
    server.authorize(begun.authUrl)
    expect(begun.codeVerifier).toEqual(expect.any(String))
    const callback = callbackUrl({ code: 'c', state: begun.state, iss: ISSUER })
    // A server that builds one Client per request.
    const session = await probeClient(server).completeAuthorization(callback)
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
    const sent = new URLSearchParams(server.tokenRequests()[0]?.bodyText)
    expect(sent.get('code_verifier')).toBe(begun.codeVerifier)
    const replay = authorizationErrorOf(
      await rejectionOf(probeClient(server).completeAuthorization(callback)),
    )
    expect(replay.error).toBe('state_mismatch')
    // `store: null` is no store (ADR 0008): kept in the process's memory, codeVerifier returned.
    const nullStore = await client.beginAuthorization({ store: null as never })
    expect(nullStore.codeVerifier).toEqual(expect.any(String))
    // A launch kept in the store given to beginAuthorization is not in the process's memory.
    const elsewhere = await client.beginAuthorization({ store: memoryStore() })
    expect(elsewhere.codeVerifier).toBeUndefined()
    const missing = authorizationErrorOf(
      await rejectionOf(
        probeClient(server).completeAuthorization(
          callbackUrl({ code: 'c', state: elsewhere.state, iss: ISSUER }),
        ),
      ),
    )
    expect(missing.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(1)
  })

  it('caller-kept launch without the nonce that was sent fails the ID token nonce rule', async () => {
    const { server, client } = freshProbe()
    const begun = await client.beginAuthorization()
    server.authorize(begun.authUrl)
    const right = callbackUrl({ code: 'c', state: begun.state, iss: ISSUER })
    const error = await failureOf(
      client.completeAuthorization(right, {
        state: begun.state,
        codeVerifier: String(begun.codeVerifier),
        nonce: 'another-nonce-another-nonce-another',
      }),
      IdTokenError,
    )
    expect(error.reason).toBe('nonce')
  })

  it('completeAuthorization options of the wrong type are ConfigurationErrors, nothing sent', async () => {
    const { server, client, store, callback } = await beginLaunch()
    await failureOf(
      client.completeAuthorization(callback(), { store: 'x' } as never),
      ConfigurationError,
    )
    await failureOf(
      client.completeAuthorization(callback(), { store, onTokens: 'x' } as never),
      ConfigurationError,
    )
    await failureOf(client.completeAuthorization(callback(), 'x' as never), ConfigurationError)
    await failureOf(
      client.completeAuthorization(callback(), { state: 42, codeVerifier: 'v' } as never),
      ConfigurationError,
    )
    await failureOf(
      client.beginAuthorization({ store, method: 'PUT' } as never),
      ConfigurationError,
    )
    expect(server.tokenRequests()).toHaveLength(0)
  })
})
