/**
 * What a session does with a caller that misbehaves (DESIGN §8, §12): options of the wrong
 * shape, a `minValiditySeconds` that would hand out a dead token, aborts that end one caller's
 * wait without cancelling a refresh others share, an `onTokens` that throws or never finishes,
 * and `fetch` inputs and transports that fail. Every case ends in a value or a typed error.
 */
import {
  ConfigurationError,
  type FetchLike,
  HttpError,
  StoreError,
  TokenError,
  TokenSet,
} from '@fhir-auth/core'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { fakeFetch } from '@fhir-auth/test-utils/fake-fetch'
import { describe, expect, it } from 'vitest'
import { Session } from '../src/session/session.js'
import type { TokensListener } from '../src/session/tokens-listener.js'

const start = new Date('2026-11-24T12:00:00Z')
const baseUrl = 'https://ehr.example.org/fhir'

interface Setup {
  readonly fetch?: FetchLike
  readonly onTokens?: TokensListener
  readonly timeoutMs?: number
  /** Resolves the refresh when called; the default answers at once. */
  readonly gate?: Promise<void>
  readonly withRefreshToken?: boolean
}

/** A session on a token expiring in 30 s (so every call refreshes first unless told otherwise). */
function session(setup: Setup = {}) {
  let refreshes = 0
  const initial = TokenSet.fromResponse(
    {
      access_token: 'at-1',
      expires_in: 30,
      ...(setup.withRefreshToken === false ? {} : { refresh_token: 'rt-1' }),
    },
    { obtainedAt: start },
  )
  const made = new Session({
    tokens: initial,
    baseUrl,
    fetch: setup.fetch,
    now: () => start,
    timeoutMs: setup.timeoutMs ?? 1_000,
    onTokens: setup.onTokens,
    refresh: async (current) => {
      refreshes += 1
      await setup.gate
      return current.withRefresh(
        { access_token: `at-${refreshes + 1}`, expires_in: 3600 },
        { obtainedAt: start },
      )
    },
  })
  return { session: made, refreshes: () => refreshes }
}

const throwingGetter = (name: string) =>
  Object.defineProperty({}, name, {
    enumerable: true,
    get() {
      throw new Error('getter at-1')
    },
  })

describe('accessToken and refresh options', () => {
  it.each([
    ['NaN', { minValiditySeconds: Number.NaN }],
    ['negative', { minValiditySeconds: -1 }],
    ['infinite', { minValiditySeconds: Number.POSITIVE_INFINITY }],
    ['a string', { minValiditySeconds: '30' }],
  ])('refuses a minValiditySeconds that is %s, before any refresh', async (_label, options) => {
    const { session: s, refreshes } = session()
    const error = await failureOf(s.accessToken(options as never), ConfigurationError)
    expect(error.invalidAttribute).toBe('minValiditySeconds')
    expect(refreshes()).toBe(0)
  })

  it('takes null options as none, and refuses options that are not a readable object', async () => {
    const { session: s } = session()
    expect(await s.accessToken(null as never)).toBe('at-2')
    for (const options of ['x', 42, throwingGetter('minValiditySeconds')]) {
      const error = await failureOf(s.accessToken(options as never), ConfigurationError)
      expect(error.message).not.toContain('at-1')
    }
    for (const options of ['x', { scopes: 'patient/*.rs' }, { scopes: [1] }, { signal: {} }]) {
      await failureOf(s.refresh(options as never), ConfigurationError)
    }
  })
})

describe('aborts end one caller’s wait, never a refresh others share', () => {
  it('an aborted caller gets a TokenError caused by the abort; the other callers get the token', async () => {
    let open = () => {}
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    const { session: s, refreshes } = session({ gate })
    const controller = new AbortController()
    const aborting = s.accessToken({ signal: controller.signal })
    const patient = s.accessToken()
    controller.abort()
    const error = await failureOf(aborting, TokenError)
    expect(error.cause).toMatchObject({ reason: 'aborted' })
    open()
    expect(await patient).toBe('at-2')
    expect(refreshes()).toBe(1)
  })

  it('a signal already aborted starts no refresh', async () => {
    const { session: s, refreshes } = session()
    await failureOf(s.refresh({ signal: AbortSignal.abort() }), TokenError)
    await failureOf(s.accessToken({ signal: AbortSignal.abort() }), TokenError)
    expect(refreshes()).toBe(0)
  })
})

describe('onTokens that misbehaves', () => {
  it('a throwing onTokens is a StoreError naming only the error’s class; the session has the new tokens', async () => {
    const onTokens: TokensListener = (tokens) => {
      throw new TypeError(`could not save ${tokens.serialize()}`)
    }
    const { session: s } = session({ onTokens })
    const error = await failureOf(s.refresh(), StoreError)
    expect(error.message).toContain('TypeError')
    expect(JSON.stringify([error.message, error.stack, error.cause])).not.toContain('at-2')
    expect(s.tokens.accessToken).toBe('at-2')
  })

  it('an onTokens that never finishes is a StoreError after the client’s time limit', async () => {
    const onTokens: TokensListener = () => new Promise(() => {})
    const { session: s } = session({ onTokens, timeoutMs: 25 })
    const error = await failureOf(s.accessToken(), StoreError)
    expect(error.message).toContain('within 25 ms')
  })
})

describe('session.fetch with inputs and transports that misbehave', () => {
  it('a signal already aborted rejects with an HttpError, sending nothing and refreshing nothing', async () => {
    const fetch = fakeFetch()
    const { session: s, refreshes } = session({ fetch })
    const error = await failureOf(s.fetch('Patient/1', { signal: AbortSignal.abort() }), HttpError)
    expect(error.reason).toBe('aborted')
    expect(fetch.calls).toHaveLength(0)
    expect(refreshes()).toBe(0)
  })

  it('aborting while the refresh runs ends the wait; nothing is sent for that caller', async () => {
    let open = () => {}
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    const fetch = fakeFetch()
    const { session: s } = session({ fetch, gate })
    const controller = new AbortController()
    const pending = s.fetch('Patient/1', { signal: controller.signal })
    controller.abort()
    const error = await failureOf(pending, HttpError)
    expect(error.reason).toBe('aborted')
    open()
    expect(await s.accessToken()).toBe('at-2')
    expect(fetch.calls).toHaveLength(0)
  })

  it('a fetch that rejects is an HttpError (network) whose cause keeps only a name and code', async () => {
    const fetch: FetchLike = async (_url, init) => {
      const header = new Headers(init.headers).get('authorization')
      throw Object.assign(new TypeError(`failed with ${header}`), { code: 'ECONNREFUSED' })
    }
    const { session: s } = session({ fetch })
    const error = await failureOf(s.fetch('Patient/1?name=x'), HttpError)
    expect(error).toMatchObject({ reason: 'network', url: `${baseUrl}/Patient/1` })
    expect(error.message).toContain('ECONNREFUSED')
    expect(JSON.stringify([error.message, String(error.cause), error.stack])).not.toContain('at-2')
  })

  it.each([
    ['undefined', undefined],
    ['a string', 'ok'],
    ['an object without headers', { status: 200 }],
    ['an object whose getters throw', throwingGetter('status')],
  ])('a fetch that resolves to %s is an HttpError', async (_label, value) => {
    const fetch = (async () => value) as unknown as FetchLike
    const { session: s } = session({ fetch, withRefreshToken: false })
    const error = await failureOf(s.fetch('Patient/1'), HttpError)
    expect(error.reason).toBe('network')
  })

  it.each([
    ['init a string', ['Patient/1', 'GET'], 'init'],
    ['init with a throwing getter', ['Patient/1', throwingGetter('method')], 'init'],
    [
      'headers that are not HTTP headers',
      ['Patient/1', { headers: { 'bad name': 'x' } }],
      'headers',
    ],
    ['a header value with a line break', ['Patient/1', { headers: { a: 'x\r\ny' } }], 'headers'],
    ['a signal that is not an AbortSignal', ['Patient/1', { signal: {} }], 'signal'],
    ['an input of another type', [42], 'url'],
    ['an input that is not a URL', ['http://[::1'], 'url'],
  ])('%s is a ConfigurationError, with nothing sent', async (_label, args, attribute) => {
    const fetch = fakeFetch()
    const { session: s } = session({ fetch, withRefreshToken: false })
    const call = (s.fetch as (...values: unknown[]) => Promise<Response>)(...(args as unknown[]))
    const error = await failureOf(call, ConfigurationError)
    expect(error.invalidAttribute).toBe(attribute)
    expect(fetch.calls).toHaveLength(0)
  })

  it('a Request whose body was already read is a ConfigurationError', async () => {
    const request = new Request(`${baseUrl}/Patient`, { method: 'POST', body: 'x' })
    await request.text()
    const { session: s } = session({ fetch: fakeFetch(), withRefreshToken: false })
    const error = await failureOf(s.fetch(request), ConfigurationError)
    expect(error.message).toContain('already read')
  })

  it('a redirect with a Location that is not a URL, or a body that cannot be sent twice, comes back as is', async () => {
    const fetch = fakeFetch(
      {
        method: 'GET',
        url: `${baseUrl}/Patient/1`,
        respond: () => new Response(null, { status: 302, headers: { location: 'http://[::1' } }),
      },
      {
        method: 'POST',
        url: `${baseUrl}/Patient`,
        respond: () =>
          new Response(null, { status: 307, headers: { location: `${baseUrl}/Patient/2` } }),
      },
    )
    const { session: s } = session({ fetch, withRefreshToken: false })
    expect((await s.fetch('Patient/1')).status).toBe(302)
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{}'))
        controller.close()
      },
    })
    const posted = await s.fetch('Patient', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(posted.status).toBe(307)
  })
})
