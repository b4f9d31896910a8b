/**
 * Fault injection into the store under `client.backendTokens` (ADR 0010), through `Client`
 * against the real SMART sandbox: a store that is slow, answers after the limit, hangs, throws
 * (synchronously, asynchronously, non-errors), answers with values the contract does not allow,
 * or holds records it was never given. Whatever the store does, `accessToken()`, `fetch()` and
 * `invalidate()` end within a bound in a token or the token request's own typed error — never a
 * hang, never the store's error or its words, never an unhandled rejection (the package's
 * guards check that after every test) — and the store's messages stay out of the log.
 */
import {
  Client,
  FhirAuthError,
  type KeyValueStore,
  memoryStore,
  StoreError,
} from '@fhir-auth/client'
import { generateClientKeys, type SmartSandbox, startSmartSandbox } from '@fhir-auth/sandbox'
import { type CapturingLogger, createCapturingLogger } from '@fhir-auth/test-utils'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, type ExpectStatic, expect, it } from 'vitest'
import {
  countHandWrittenCases,
  expectTypedOutcome,
  printCaseLedger,
  propertySettings,
} from '../src/index.js'

let sandbox: SmartSandbox
let keys: Awaited<ReturnType<typeof generateClientKeys>>
const clientId = 'store-faults-backend'
/** Words every failing store puts in its errors: none may reach a caller or a log line. */
const storeSecret = `store-secret-${crypto.randomUUID()}`

beforeAll(async () => {
  keys = await generateClientKeys('ES384')
  sandbox = await startSmartSandbox({
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [keys.publicJwk] },
        scope: 'system/Patient.rs',
      },
    ],
    requestLogLimit: 50_000,
  })
}, 60_000)

afterAll(async () => {
  await sandbox?.close()
  printCaseLedger('backend-token-store-faults')
})

/**
 * The client's request timeout. The store's per-operation limit is half of it; the lock lives
 * as long as it (rounded up to seconds); a waiter waits twice the timeout. The bound below covers
 * the worst path (store operations at their limit, the lock wait, the request) with room for a
 * loaded machine.
 *
 * Every case here expects its token requests to succeed, and the same timeout bounds them: it
 * must be a limit a token request to the in-process sandbox never reaches, even with five cases
 * at once on a machine busy with other test files. At 1 s it did: under load (three CPU-bound
 * processes on the 2 cores) a request timed out in each of two runs, and the case failed
 * with `TokenError: … timed out after 1000 ms`. 3 s keeps every store fault's path short.
 */
const timeoutMs = 3_000
const settleWithinMs = 20_000

function backendClient(logger: CapturingLogger, scopes = ['system/Patient.rs']): Client {
  return new Client(
    {
      baseUrl: sandbox.fhirBaseUrl,
      clientId,
      privateKey: keys.privateKeyPem,
      kid: keys.kid,
      scopes,
      allowInsecureLocalhost: true,
    },
    { clientType: 'confidential_asymmetric', logger, timeoutMs },
  )
}

type Operation = 'get' | 'set' | 'delete' | 'setIfAbsent'
const operations: readonly Operation[] = ['get', 'set', 'delete', 'setIfAbsent']

/** What one store operation does instead of its job (`ok`: its job, on a memory store). */
type Fault =
  | 'ok'
  | 'slow'
  | 'late'
  | 'hang'
  | 'throw'
  | 'reject'
  | 'reject-non-error'
  | 'reject-store-error'
  | 'number'
  | 'object'
  | 'array'
  | 'text'
  | 'true'
  | 'false'
  | 'null'
const faults: readonly Fault[] = [
  'ok',
  'slow',
  'late',
  'hang',
  'throw',
  'reject',
  'reject-non-error',
  'reject-store-error',
  'number',
  'object',
  'array',
  'text',
  'true',
  'false',
  'null',
]

const delay = (ms: number, value?: unknown) =>
  new Promise((resolve) => setTimeout(() => resolve(value), ms))

function answer(fault: Fault, job: () => Promise<unknown>): unknown {
  switch (fault) {
    case 'ok':
      return job()
    case 'slow': // within the limit (half the timeout)
      return delay(timeoutMs / 10).then(job)
    case 'late': // after the limit, then it does its job anyway
      return delay(timeoutMs).then(job)
    case 'hang':
      return new Promise(() => {})
    case 'throw':
      throw new Error(`store failed synchronously: ${storeSecret}`)
    case 'reject':
      return Promise.reject(new TypeError(`connection reset, value ${storeSecret}`))
    case 'reject-non-error':
      return Promise.reject({ reason: storeSecret })
    case 'reject-store-error':
      return Promise.reject(new StoreError('get', `Redis refused get (${storeSecret})`))
    case 'number':
      return Promise.resolve(42)
    case 'object':
      return Promise.resolve({ value: storeSecret })
    case 'array':
      return Promise.resolve([storeSecret])
    case 'text':
      return Promise.resolve(`not a record ${storeSecret}`)
    case 'true':
      return Promise.resolve(true)
    case 'false':
      return Promise.resolve(false)
    case 'null':
      return Promise.resolve(null)
  }
}

/** A memory store whose operations misbehave as `faultOf` says, call by call. */
function faultyStore(faultOf: (operation: Operation, call: number) => Fault): KeyValueStore {
  const inner = memoryStore()
  let calls = 0
  const operation =
    (name: Operation, job: (...args: never[]) => Promise<unknown>) =>
    (...args: never[]) =>
      answer(faultOf(name, calls++), () => job(...args))
  return {
    get: operation('get', (key: string) => inner.get(key)),
    set: operation('set', (key: string, value: string, ttl: number) => inner.set(key, value, ttl)),
    delete: operation('delete', (key: string) => inner.delete(key)),
    setIfAbsent: operation('setIfAbsent', (key: string, value: string, ttl: number) =>
      inner.setIfAbsent(key, value, ttl),
    ),
  } as KeyValueStore
}

/** Nothing the store said, and no token, in any log line. */
function expectCleanLog(
  logger: CapturingLogger,
  tokens: readonly string[],
  check: ExpectStatic = expect,
): void {
  for (const line of logger.renderedLines()) {
    check(line).not.toContain(storeSecret)
    for (const token of tokens) check(line).not.toContain(token)
  }
}

/**
 * One round of use: 3 calls one after another, 5 at once, a FHIR read through `fetch`, an
 * `invalidate()` and one more call, each checked by `expectTypedOutcome`. The tokens returned.
 */
async function useTokens(store: KeyValueStore, logger: CapturingLogger, scopes?: string[]) {
  const tokens = backendClient(logger, scopes).backendTokens({ store })
  const rules = { maxElapsedMs: settleWithinMs, secrets: { store: storeSecret } }
  const outcomes = []
  for (let i = 0; i < 3; i++)
    outcomes.push(await expectTypedOutcome(() => tokens.accessToken(), rules))
  outcomes.push(
    ...(await Promise.all(
      Array.from({ length: 5 }, () => expectTypedOutcome(() => tokens.accessToken(), rules)),
    )),
  )
  const read = await expectTypedOutcome(async () => {
    const response = await tokens.fetch('Patient/patient-1')
    await response.arrayBuffer()
    return response.status
  }, rules)
  const invalidated = await expectTypedOutcome(() => tokens.invalidate(), rules)
  outcomes.push(await expectTypedOutcome(() => tokens.accessToken(), rules))
  return { outcomes, read, invalidated }
}

describe('a misbehaving store under backendTokens', () => {
  const cases = operations.flatMap((operation) =>
    faults.filter((fault) => fault !== 'ok').map((fault) => [operation, fault] as const),
  )
  countHandWrittenCases('one operation misbehaving on every call', cases.length)

  // Independent cases (each its own client and store), run a few at a time: most wait for a
  // store limit or a lock to expire.
  it.concurrent.for(cases)(
    '%s: %s on every call — tokens and a FHIR read still succeed',
    async ([operation, fault], { expect }) => {
      const logger = createCapturingLogger()
      const store = faultyStore((name) => (name === operation ? fault : 'ok'))
      const { outcomes, read, invalidated } = await useTokens(store, logger)
      for (const outcome of outcomes) expect(outcome.kind).toBe('success')
      expect(read).toMatchObject({ kind: 'success', value: 200 })
      expect(invalidated.kind).toBe('success')
      const tokens = outcomes.map((outcome) => String(outcome.kind === 'success' && outcome.value))
      expectCleanLog(logger, tokens, expect)
    },
  )

  it.each(faults.filter((fault) => fault !== 'ok'))(
    'every operation: %s — still tokens, at most one token request per call',
    async (fault) => {
      const logger = createCapturingLogger()
      const before = sandbox.requests.filter((request) => request.path === '/token').length
      const { outcomes, read } = await useTokens(
        faultyStore(() => fault),
        logger,
      )
      for (const outcome of outcomes) expect(outcome.kind).toBe('success')
      expect(read).toMatchObject({ kind: 'success', value: 200 })
      const requests = sandbox.requests.filter((request) => request.path === '/token').length
      // 9 accessToken calls and the read: the 5 concurrent ones share a request.
      expect(requests - before).toBeLessThanOrEqual(6)
      // A slow store answers within the limit: it is used, and nothing is said about it.
      const storeWarnings = logger.messages('warn').filter((m) => /store/i.test(m))
      expect(storeWarnings.length > 0).toBe(fault !== 'slow')
      expectCleanLog(logger, [])
    },
  )
  countHandWrittenCases('every operation misbehaving', faults.length - 1)

  it.each(['hang', 'throw', 'number', 'late'] as const)(
    'a refused token request with a store that answers %s: the TokenError, not a store error',
    async (fault) => {
      const logger = createCapturingLogger()
      const { outcomes } = await useTokens(
        faultyStore(() => fault),
        logger,
        ['system/*.cruds'],
      )
      for (const outcome of outcomes) {
        expect(outcome.kind).toBe('typed-error')
        if (outcome.kind !== 'typed-error') continue
        expect(outcome.error.name).toBe('TokenError')
        expect(outcome.error).not.toBeInstanceOf(StoreError)
      }
    },
  )
  countHandWrittenCases('store faults with a refused token request', 4)

  it('records the store holds but never wrote: garbage is read as no token', async () => {
    const records = [
      '{',
      'null',
      '[]',
      '{"accessToken":"x"}',
      JSON.stringify({ accessToken: 'a\nb', obtainedAt: 0, expiresAt: 4e12 }),
      JSON.stringify({ accessToken: 'x', obtainedAt: 'yesterday', expiresAt: 4e12 }),
      JSON.stringify({ accessToken: 'x', obtainedAt: 5e12, expiresAt: 4e12 }),
      JSON.stringify({ accessToken: { toString: storeSecret }, obtainedAt: 0, expiresAt: 4e12 }),
      JSON.stringify({ __proto__: { accessToken: 'x' }, obtainedAt: 0, expiresAt: 4e12 }),
    ]
    countHandWrittenCases('garbage records', records.length)
    for (const record of records) {
      const logger = createCapturingLogger()
      const inner = memoryStore()
      const store: KeyValueStore = {
        get: async (key) => (key.includes('backend-token:') ? record : inner.get(key)),
        set: (key, value, ttl) => inner.set(key, value, ttl),
        delete: (key) => inner.delete(key),
        setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
      }
      const { outcomes, read } = await useTokens(store, logger)
      for (const outcome of outcomes) {
        expect(outcome.kind).toBe('success')
        expect(outcome.kind === 'success' && outcome.value).not.toBe('x')
      }
      expect(read).toMatchObject({ kind: 'success', value: 200 })
    }
  })
})

describe('a store given to backendTokens that is not one', () => {
  const hostileStores: ReadonlyArray<readonly [string, unknown]> = [
    ['a string', 'redis://localhost'],
    ['a function', () => {}],
    ['an object without setIfAbsent', { get() {}, set() {}, delete() {} }],
    ['an object whose methods are not functions', { get: 1, set: 1, delete: 1, setIfAbsent: 1 }],
    [
      'an object whose getters throw',
      Object.defineProperty({}, 'get', {
        get() {
          throw new Error(storeSecret)
        },
      }),
    ],
    [
      'a proxy that throws on every access',
      new Proxy(
        {},
        {
          get() {
            throw new Error(storeSecret)
          },
          has() {
            throw new Error(storeSecret)
          },
        },
      ),
    ],
  ]
  countHandWrittenCases('hostile store values', hostileStores.length)

  it.each(hostileStores)('%s: a ConfigurationError naming store, at once', async (_name, store) => {
    const logger = createCapturingLogger()
    const outcome = await expectTypedOutcome(
      () => backendClient(logger).backendTokens({ store: store as KeyValueStore }),
      { maxElapsedMs: settleWithinMs, secrets: { store: storeSecret } },
    )
    expect(outcome.kind).toBe('typed-error')
    expect(outcome.kind === 'typed-error' && outcome.error).toMatchObject({
      code: 'ERR_CONFIGURATION',
      invalidAttribute: 'store',
    })
  })
})

describe('a store that misbehaves at random', () => {
  it('ends in a token or a typed error that is not a store error, every time', async () => {
    const client = backendClient(createCapturingLogger())
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...faults), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 6 }),
        async (script, concurrency) => {
          const store = faultyStore((_operation, call) => script[call % script.length] as Fault)
          const tokens = client.backendTokens({ store })
          const rules = { maxElapsedMs: settleWithinMs, secrets: { store: storeSecret } }
          const outcomes = await Promise.all(
            Array.from({ length: concurrency }, () =>
              expectTypedOutcome(() => tokens.accessToken(), rules),
            ),
          )
          for (const outcome of outcomes) {
            if (outcome.kind === 'typed-error') {
              expect(outcome.error).toBeInstanceOf(FhirAuthError)
              expect(outcome.error).not.toBeInstanceOf(StoreError)
            } else {
              expect(typeof outcome.value).toBe('string')
            }
          }
        },
      ),
      propertySettings('backend tokens over a store that misbehaves at random', 40),
    )
  }, 180_000)
})
