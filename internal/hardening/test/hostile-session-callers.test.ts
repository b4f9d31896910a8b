/**
 * Callers of DESIGN §8's operations that misbehave, beyond their options objects (those are in
 * `hostile-options.test.ts`): callback URLs of every shape, stores that throw, hang, return
 * what is not a string or a record the library did not write, tokens to resume that are not
 * what `serialize()` wrote, and `session.fetch` inputs and transports that fail. Against a
 * scripted SMART server; every case ends in success or a typed error within the client's time
 * limit plus a margin, and no launch secret (the PKCE verifier, the code) reaches an error.
 */
import { Client, type KeyValueStore, memoryStore, silentLogger, TokenSet } from '@fhir-auth/client'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  damagedText,
  expectTypedOutcome,
  hostileBody,
  hostileStrings,
  OutcomeTally,
  printCaseLedger,
  propertySettings,
  type ScriptedAnswer,
  scriptedFetch,
  validSmartConfiguration,
  wrongTypeInputs,
} from '../src/index.js'

const origin = 'https://ehr.callers.test'
const baseUrl = `${origin}/fhir`
const redirectUri = 'https://app.callers.test/callback'
const timeoutMs = 200
const maxElapsedMs = timeoutMs * 4 + 5_000
const code = 'code-Ap9Sd8Fg7Hj6Kl5'

afterAll(() => printCaseLedger('hostile-session-callers'))

const json = (body: unknown): ScriptedAnswer => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})

/** Discovery, a token endpoint that answers any code, and one FHIR resource. */
const server = scriptedFetch((call) => {
  const url = call.url.split('?')[0] ?? ''
  if (url === `${baseUrl}/.well-known/smart-configuration`) {
    return json(validSmartConfiguration(origin))
  }
  if (url === `${origin}/token`) {
    return json({
      access_token: 'access-token-Qw2Er3Ty4',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'launch/patient patient/*.rs offline_access',
      refresh_token: 'refresh-token-Ui5Op6As7',
    })
  }
  if (url === `${baseUrl}/Patient/1`) return json({ resourceType: 'Patient', id: '1' })
  return { status: 404, body: '' }
})

function client(fetch = server.fetch, limitMs = timeoutMs): Client {
  return new Client(
    {
      baseUrl,
      clientId: 'callers-app',
      redirectUri,
      scopes: ['launch/patient', 'patient/*.rs', 'offline_access'],
    },
    { fetch, timeoutMs: limitMs, logger: silentLogger },
  )
}

/** The secrets of a launch kept in `store`: its PKCE verifier, read from what was written. */
function recordingStore(inner: KeyValueStore = memoryStore()) {
  const verifiers: string[] = []
  const store: KeyValueStore = {
    ...inner,
    set: async (key, value, ttl) => {
      const record = JSON.parse(value) as { codeVerifier?: string }
      if (typeof record.codeVerifier === 'string') verifiers.push(record.codeVerifier)
      await inner.set(key, value, ttl)
    },
  }
  return { store, verifiers }
}

describe('callback URLs of every shape', () => {
  it('end in a session (the real state and a code) or a typed error, never showing the code', async () => {
    const tally = new OutcomeTally()
    const parameter = fc.tuple(
      fc.constantFrom('code', 'state', 'iss', 'error', 'error_description', 'error_uri', 'x'),
      fc.oneof(fc.constantFrom(...hostileStrings), fc.string({ unit: 'binary', maxLength: 40 })),
    )
    const callbackShape = fc.record({
      prefix: fc.constantFrom(redirectUri, '', '?', 'relative/callback', '//evil.test/cb', '#'),
      withState: fc.boolean(),
      withCode: fc.boolean(),
      extra: fc.array(parameter, { maxLength: 4 }),
      as: fc.constantFrom('string', 'URL', 'URLSearchParams'),
    })
    await fc.assert(
      fc.asyncProperty(callbackShape, async (shape) => {
        const app = client()
        const { store, verifiers } = recordingStore()
        const { state } = await app.beginAuthorization({ store })
        const query = new URLSearchParams()
        if (shape.withState) query.append('state', state)
        if (shape.withCode) query.append('code', code)
        for (const [name, value] of shape.extra) query.append(name, value)
        const text = `${shape.prefix}${shape.prefix.includes('?') ? '' : '?'}${query}`
        const callback =
          shape.as === 'URLSearchParams'
            ? query
            : shape.as === 'URL' && URL.canParse(text)
              ? new URL(text)
              : text
        tally.record(
          await expectTypedOutcome(() => app.completeAuthorization(callback, { store }), {
            maxElapsedMs,
            secrets: { code, verifier: verifiers[0] ?? '' },
          }),
        )
      }),
      propertySettings('hostile callback URLs', 300),
    )
    for (const callback of wrongTypeInputs) {
      const { store } = recordingStore()
      tally.record(
        await expectTypedOutcome(
          () => client().completeAuthorization(callback as string, { store }),
          { maxElapsedMs },
        ),
      )
    }
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  }, 120_000)
})

/** One way a store method can misbehave. */
type Behaviour =
  | { readonly kind: 'normal' }
  | {
      readonly kind: 'throws'
      readonly thrown: 'error with the value' | 'string' | 'undefined'
      readonly synchronously: boolean
    }
  | { readonly kind: 'hangs' }
  | { readonly kind: 'returns'; readonly value: unknown }
  | { readonly kind: 'corrupts'; readonly text: string }

const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'normal' as const }) },
  fc.record({
    kind: fc.constant('throws' as const),
    thrown: fc.constantFrom(
      'error with the value' as const,
      'string' as const,
      'undefined' as const,
    ),
    synchronously: fc.boolean(),
  }),
  fc.constant({ kind: 'hangs' as const }),
  fc.record({
    kind: fc.constant('returns' as const),
    value: fc.constantFrom(
      42,
      true,
      {},
      ['x'],
      new Uint8Array([1, 2]),
      Symbol('s'),
      null,
      undefined,
    ),
  }),
  fc.record({
    kind: fc.constant('corrupts' as const),
    text: fc.oneof(
      hostileBody({
        state: 's',
        codeVerifier: 'v'.repeat(43),
        redirectUri,
        scopes: ['launch/patient'],
        issuer: baseUrl,
        createdAt: 0,
      }).map((body) => body.text),
      damagedText('{"v":"x","e":1}'),
    ),
  }),
)

/** A memory store whose `set` and `take`/`get` misbehave as told. */
function misbehavingStore(onSet: Behaviour, onRead: Behaviour, withTake: boolean): KeyValueStore {
  const inner = memoryStore()
  const act = <T>(what: Behaviour, value: string | undefined, normal: () => Promise<T>) => {
    switch (what.kind) {
      case 'normal':
        return normal()
      case 'throws': {
        const thrown =
          what.thrown === 'error with the value'
            ? new Error(`store failed on ${value}`)
            : what.thrown === 'string'
              ? `store failed on ${value}`
              : undefined
        if (what.synchronously) throw thrown
        return Promise.reject(thrown)
      }
      case 'hangs':
        return new Promise<T>(() => {})
      case 'returns':
        return Promise.resolve(what.value as T)
      case 'corrupts':
        return Promise.resolve(what.text as T)
    }
  }
  const store: KeyValueStore = {
    get: (key) => act(onRead, undefined, () => inner.get(key)),
    set: (key, value, ttl) => act(onSet, value, () => inner.set(key, value, ttl)),
    delete: (key) => inner.delete(key),
    setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
  }
  return withTake
    ? { ...store, take: (key) => act(onRead, undefined, () => inner.take(key)) }
    : store
}

describe('stores that misbehave', () => {
  it('a launch kept in them ends in a session or a typed error in time, never showing the verifier', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(behaviour, behaviour, fc.boolean(), async (onSet, onRead, withTake) => {
        const store = misbehavingStore(onSet, onRead, withTake)
        // A short time limit: the hanging stores take all of it.
        const app = client(server.fetch, 40)
        const verifiers: string[] = []
        const recording: KeyValueStore = {
          ...store,
          set: (key, value, ttl) => {
            verifiers.push(String((JSON.parse(value) as { codeVerifier?: string }).codeVerifier))
            return store.set(key, value, ttl)
          },
        }
        const begun = await expectTypedOutcome(() => app.beginAuthorization({ store: recording }), {
          maxElapsedMs,
        })
        tally.record(begun)
        if (begun.kind !== 'success') return
        const { state } = begun.value as { state: string }
        const callback = `${redirectUri}?code=${code}&state=${state}`
        tally.record(
          await expectTypedOutcome(
            () => app.completeAuthorization(callback, { store: recording }),
            {
              maxElapsedMs,
              secrets: { code, verifier: verifiers[0] ?? '' },
            },
          ),
        )
      }),
      propertySettings('misbehaving stores', 200),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.summary()).toContain('StoreError')
    expect(tally.summary()).toContain('AuthorizationError')
  }, 120_000)
})

describe('tokens to resume that serialize() did not write', () => {
  it('are a ConfigurationError, or a session whose calls end typed', async () => {
    const tally = new OutcomeTally()
    const saved = TokenSet.fromResponse(
      {
        access_token: 'access-token-Zx1Cv2Bn3',
        refresh_token: 'refresh-token-Mn4Bv5',
        expires_in: 1,
      },
      { obtainedAt: new Date(0) },
    ).serialize()
    const hostileTokens = fc.oneof(
      damagedText(saved),
      hostileBody(JSON.parse(saved)).map((body) => body.text),
      hostileBody({ access_token: 'a-token-Lk8Jh7', expires_in: 3600 }).map((body) => {
        try {
          return JSON.parse(body.text) as unknown
        } catch {
          return body.text
        }
      }),
      fc.constantFrom(...wrongTypeInputs),
    )
    await fc.assert(
      fc.asyncProperty(hostileTokens, async (tokens) => {
        tally.record(
          await expectTypedOutcome(
            async () => {
              const session = client().resumeSession(tokens as string)
              await session.accessToken()
              return session.fetch('Patient/1')
            },
            {
              maxElapsedMs,
              secrets: { access: 'access-token-Zx1Cv2Bn3', refresh: 'refresh-token-Mn4Bv5' },
            },
          ),
        )
      }),
      propertySettings('hostile tokens to resume', 300),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  }, 120_000)
})

describe('session.fetch inputs and transports', () => {
  const answers: readonly ScriptedAnswer[] = [
    json({ resourceType: 'Patient' }),
    { status: 401, body: '' },
    { status: 302, body: null, headers: { location: `${baseUrl}/Patient/2` } },
    { status: 307, body: null, headers: { location: 'https://evil.test/steal' } },
    { status: 301, body: null, headers: { location: 'http://[::1' } },
    { throws: new TypeError('fetch failed with Bearer access-token-Qw2Er3Ty4') },
    { throws: 'a string', synchronously: true },
    { resolvesTo: { status: 'two hundred' } },
    { resolvesTo: undefined },
    { hangs: true },
  ]
  const input = fc.oneof(
    fc.constantFrom(
      'Patient/1',
      './Patient/1',
      `${baseUrl}/Patient/1`,
      '../token',
      '/other',
      'https://evil.test/fhir',
    ),
    fc.constantFrom(...hostileStrings),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.constantFrom(...wrongTypeInputs),
  )
  const init = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(...wrongTypeInputs),
    fc.record(
      {
        method: fc.constantFrom('GET', 'POST', 'get', 'CONNECT', 'TRACE', '', 'BAD METHOD', 42),
        headers: fc.constantFrom(
          { accept: 'application/fhir+json' },
          { 'bad name': 'x' },
          { a: 'x\r\ny' },
          [['a']],
          42,
          null,
        ),
        body: fc.constantFrom(
          undefined,
          'text',
          new Uint8Array([1]),
          new URLSearchParams('a=1'),
          { not: 'a body' },
          42,
        ),
        redirect: fc.constantFrom('follow', 'error', 'nonsense'),
      },
      { requiredKeys: [] },
    ),
  )

  it('end in a response or a typed error, within the caller’s signal', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(
        input,
        init,
        fc.constantFrom(...answers.keys()),
        async (url, options, which) => {
          const transport = scriptedFetch((call) =>
            call.url.startsWith(`${origin}/token`)
              ? json({ access_token: 'renewed-Po9Iu8Yt7', expires_in: 3600 })
              : (answers[which] as ScriptedAnswer),
          )
          const session = client(transport.fetch).resumeSession({
            access_token: 'access-token-Qw2Er3Ty4',
            refresh_token: 'refresh-token-Ui5Op6As7',
            expires_in: 3600,
          })
          // A hanging server is bounded by the caller's signal only (no cap on FHIR reads).
          const withSignal =
            typeof options === 'object' && options !== null && !Array.isArray(options)
              ? { ...options, signal: AbortSignal.timeout(timeoutMs) }
              : options
          const call = which === answers.length - 1 ? withSignal : options
          if (which === answers.length - 1 && call === options) return
          tally.record(
            await expectTypedOutcome(() => session.fetch(url as string, call as RequestInit), {
              maxElapsedMs,
              secrets: { access: 'access-token-Qw2Er3Ty4', refresh: 'refresh-token-Ui5Op6As7' },
            }),
          )
        },
      ),
      propertySettings('hostile session.fetch inputs', 400),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.summary()).toContain('ConfigurationError')
    expect(tally.summary()).toContain('HttpError')
  }, 120_000)
})
