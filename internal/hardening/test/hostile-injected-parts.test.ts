/**
 * The parts a caller injects into a `Client` — its clock (`now`) and its `logger` — and the token
 * response it hands to `resumeSession`, when they misbehave (DESIGN §6, §8, §12): a clock that
 * gives a number (`now: Date.now`, the easy slip), an Invalid Date, a string, or throws; a logger
 * whose methods throw or return rejected promises; a token response whose getters change or
 * throw, or that the caller changes after resuming. Each ends in the operation's own result or a
 * typed error, never a raw `TypeError`, a token that never expires, or tokens the server issued
 * and the session lost.
 */
import {
  Client,
  ConfigurationError,
  DiscoveryError,
  type Logger,
  memoryStore,
  TokenSet,
} from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { type ScriptedAnswer, scriptedFetch, validSmartConfiguration } from '../src/index.js'

const origin = 'https://ehr.injected.test'
const baseUrl = `${origin}/fhir`
const redirectUri = 'https://app.injected.test/callback'
const start = new Date('2026-11-25T08:00:00Z')

const json = (body: unknown): ScriptedAnswer => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})

/**
 * A SMART server whose token endpoint grants `access-<n>` (rotating the refresh token each time)
 * with a `need_patient_banner` of the wrong JSON type, which the client reports with a warning.
 */
function smartServer(options: { readonly discoveryFails?: boolean } = {}) {
  let grants = 0
  return scriptedFetch((call) => {
    const url = call.url.split('?')[0] ?? ''
    if (url === `${baseUrl}/.well-known/smart-configuration`) {
      return options.discoveryFails
        ? { status: 503, body: '' }
        : json(validSmartConfiguration(origin))
    }
    if (url === `${origin}/token`) {
      grants += 1
      return json({
        access_token: `access-${grants}`,
        refresh_token: `refresh-${grants}`,
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'launch/patient patient/*.rs offline_access',
        need_patient_banner: 'yes',
      })
    }
    return { status: 404, body: '' }
  })
}

function client(options: { readonly now?: () => unknown; readonly logger?: Logger } = {}) {
  const server = smartServer()
  const app = new Client(
    {
      baseUrl,
      clientId: 'injected-app',
      redirectUri,
      scopes: ['launch/patient', 'patient/*.rs', 'offline_access'],
    },
    { fetch: server.fetch, timeoutMs: 500, ...options } as never,
  )
  return { app, server }
}

const callback = (state: string) => `${redirectUri}?code=code-1&state=${state}`

/** Clocks a JavaScript caller can pass that do not give a valid Date. */
const brokenClocks: readonly (readonly [string, () => unknown])[] = [
  ['Date.now (a number)', Date.now],
  ['an Invalid Date', () => new Date(Number.NaN)],
  ['a string', () => start.toISOString()],
  ['undefined', () => undefined],
  [
    'a throwing function',
    () => {
      throw new Error('clock-broke-Zx81')
    },
  ],
]

describe('a clock that does not give a valid Date', () => {
  it.each(brokenClocks)(
    '%s: beginAuthorization and resumeSession are ConfigurationErrors on now',
    async (_name, broken) => {
      const { app, server } = client({ now: broken })
      const store = memoryStore()
      const began = await failureOf(app.beginAuthorization({ store }), ConfigurationError)
      expect(began.invalidAttribute).toBe('now')
      expect(began.message).not.toContain('clock-broke-Zx81')
      const resumed = (() => {
        try {
          app.resumeSession({ access_token: 'access-0', expires_in: 60 })
        } catch (error) {
          return error
        }
        return undefined
      })()
      expect(resumed).toBeInstanceOf(ConfigurationError)
      expect((resumed as ConfigurationError).invalidAttribute).toBe('now')
      const backend = await failureOf(app.backendTokens().accessToken(), ConfigurationError)
      expect(backend.invalidAttribute).toBe('now')
      expect(server.calls.filter((call) => call.url === `${origin}/token`)).toEqual([])
    },
  )

  it.each(brokenClocks)(
    '%s, set after the launch began: completing it, and the session’s calls, are ConfigurationErrors on now',
    async (_name, broken) => {
      let clock: () => unknown = () => start
      const { app } = client({ now: () => clock() })
      const store = memoryStore()
      const { state } = await app.beginAuthorization({ store })
      const session = await app.completeAuthorization(callback(state), { store })
      const { state: second } = await app.beginAuthorization({ store })
      clock = broken
      const completed = await failureOf(
        app.completeAuthorization(callback(second), { store }),
        ConfigurationError,
      )
      expect(completed.invalidAttribute).toBe('now')
      // Not a token that never expires: a clock that cannot tell the time refreshes nothing either.
      const read = await failureOf(session.accessToken(), ConfigurationError)
      expect(read.invalidAttribute).toBe('now')
      const refreshed = await failureOf(session.refresh(), ConfigurationError)
      expect(refreshed.invalidAttribute).toBe('now')
      expect(session.tokens.accessToken).toBe('access-1')
    },
  )
})

/** Loggers whose every method fails: by throwing, or by returning a rejected promise. */
const brokenLoggers: readonly (readonly [string, () => Logger & { calls: () => number }])[] = [
  [
    'throws',
    () => {
      let calls = 0
      const fail = () => {
        calls += 1
        throw new Error('logger-down-Qp27')
      }
      return { info: fail, warn: fail, error: fail, debug: fail, calls: () => calls }
    },
  ],
  [
    'rejects',
    () => {
      let calls = 0
      const fail = async () => {
        calls += 1
        throw new Error('logger-down-Qp27')
      }
      return { info: fail, warn: fail, error: fail, debug: fail, calls: () => calls }
    },
  ],
]

describe('a logger that fails', () => {
  it.each(brokenLoggers)(
    '%s: launches and refreshes end as they would with a working logger',
    async (_name, makeLogger) => {
      const logger = makeLogger()
      const { app } = client({ logger })
      const store = memoryStore()
      const { state } = await app.beginAuthorization({ store })
      // The code is exchanged and the server's warning-worthy member logged: the tokens are kept.
      const session = await app.completeAuthorization(callback(state), { store })
      expect(session.tokens.accessToken).toBe('access-1')
      expect(session.tokens.needPatientBanner).toBeUndefined()
      // The server rotated the refresh token: the session must hold the new one, or it is dead.
      const refreshed = await session.refresh()
      expect(refreshed.refreshToken).toBe('refresh-2')
      expect(session.tokens.refreshToken).toBe('refresh-2')
      expect(app.isTokenResponseValid({ access_token: 'access-9', token_type: 'mac' })).toBe(false)
      expect(logger.calls()).toBeGreaterThan(3)
    },
  )

  it.each(brokenLoggers)(
    '%s: a discovery failure is still a DiscoveryError',
    async (_name, makeLogger) => {
      const logger = makeLogger()
      const server = smartServer({ discoveryFails: true })
      const app = new Client({ baseUrl, clientId: 'injected-app' }, { fetch: server.fetch, logger })
      const error = await failureOf(app.serverMetadata(), DiscoveryError)
      expect(error.message).not.toContain('logger-down-Qp27')
      expect(logger.calls()).toBeGreaterThan(0)
    },
  )
})

describe('a token response handed to resumeSession', () => {
  it('is read once: a getter that changes its answer cannot make a token that is not a string', () => {
    const { app } = client()
    let reads = 0
    const response = {
      get access_token() {
        reads += 1
        return reads === 1 ? 'access-from-getter' : 42
      },
      expires_in: 3600,
    }
    const session = app.resumeSession(response as never)
    expect(session.tokens.accessToken).toBe('access-from-getter')
    expect(JSON.parse(session.tokens.serialize()).raw.access_token).toBe('access-from-getter')
  })

  it('is the session’s own: changing the caller’s object afterwards changes nothing', () => {
    const { app } = client()
    const response = {
      access_token: 'access-own',
      refresh_token: 'refresh-own',
      expires_in: 3600,
      fhirContext: [{ reference: 'Patient/1' }],
    }
    const session = app.resumeSession(response)
    response.refresh_token = 'refresh-changed'
    response.access_token = 'access-changed'
    ;(response.fhirContext[0] as { reference: string }).reference = 'Patient/2'
    const resumed = TokenSet.deserialize(session.tokens.serialize())
    expect(resumed?.refreshToken).toBe('refresh-own')
    expect(resumed?.accessToken).toBe('access-own')
    expect(session.tokens.fhirContext).toEqual([{ reference: 'Patient/1' }])
  })

  it('that cannot be read (a throwing getter or Proxy trap) is a ConfigurationError on tokens, not the caller’s error', () => {
    const { app } = client()
    const throwing = new Proxy(
      { access_token: 'access-proxy', expires_in: 3600 },
      {
        get(target, name) {
          if (name === 'expires_in') throw new Error('trap-refresh-secret-Lk90')
          return Reflect.get(target, name)
        },
      },
    )
    let thrown: unknown
    try {
      app.resumeSession(throwing as never)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ConfigurationError)
    expect((thrown as ConfigurationError).invalidAttribute).toBe('tokens')
    expect(String(thrown)).not.toContain('trap-refresh-secret-Lk90')
    expect((thrown as Error).cause).toBeUndefined()
  })
})
