/**
 * Unknown option names on every `Client` operation (ADR 0008, issue 24 finding 14): an own
 * member its options type does not declare is a `ConfigurationError` on that name, whose message
 * says "unknown option" and lists the valid ones, before anything is sent — a typo such as
 * `requestBackendToken({ scope })` used to ask for the configured scopes instead. Every declared
 * name (`signal`, `onTokens`, the UDAP trust inputs…) is still accepted.
 */
import { describe, expect, it } from 'vitest'
import { Client, ConfigurationError, memoryStore, type Session } from '../src/index.js'
import { type OperationName, operationOptionNames } from '../src/operation-options.js'
import {
  baseUrl,
  capturingLogger,
  configurationRejection,
  discoveryUrl,
  ecKeyPem,
  fakeServer,
  json,
  smartConfiguration,
  tokenBody,
} from './support.js'

const callbackUrl = 'https://app.example.org/cb?code=c0de&state=s1'
const tokens = { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1', expires_in: 1 }

/** A server that answers nothing: every request is recorded and fails the test. */
function silentServer() {
  return fakeServer({})
}

/** A server that is down: every request is a 503. */
const downServer = async () => new Response('down', { status: 503 })

function smartClient(fetch = silentServer().fetch) {
  return new Client(
    {
      baseUrl,
      clientId: 'app',
      redirectUri: 'https://app.example.org/cb',
      scopes: ['launch/patient', 'openid'],
      privateKey: ecKeyPem(),
      kid: 'k1',
    },
    { fetch, timeoutMs: 1_000, logger: capturingLogger().logger },
  )
}

function udapClient(fetch = silentServer().fetch) {
  return new Client(
    { baseUrl, clientId: 'udap-app', redirectUri: 'https://app.example.org/cb' },
    { protocol: 'udap', fetch, timeoutMs: 1_000, logger: capturingLogger().logger },
  )
}

/**
 * Each operation, run with the given options (plus what it cannot go without). Typed by the
 * table of option names, so an operation added there needs a runner here.
 */
const runners: Readonly<
  Record<OperationName, (client: Client, options: Record<string, unknown>) => unknown>
> = {
  serverMetadata: (client, options) => client.serverMetadata(options as never),
  authorizationUrl: (client, options) => client.authorizationUrl(options as never),
  beginAuthorization: (client, options) =>
    client.beginAuthorization({ store: memoryStore(), ...options } as never),
  completeAuthorization: (client, options) =>
    client.completeAuthorization(callbackUrl, { store: memoryStore(), ...options } as never),
  requestAccessToken: (client, options) =>
    client.requestAccessToken({ code: 'c0de', codeVerifier: 'v'.repeat(43), ...options }),
  refreshToken: (client, options) => client.refreshToken({ refreshToken: 'rt-1', ...options }),
  requestBackendToken: (client, options) => client.requestBackendToken(options as never),
  backendTokens: (client, options) => client.backendTokens(options as never),
  registerClient: (client, options) =>
    client.registerClient({ client_name: 'app' }, options as never),
  cancelRegistration: (client, options) =>
    client.cancelRegistration({ client_name: 'app' }, options as never),
  resumeSession: (client, options) => client.resumeSession(tokens, options as never),
  validateIdToken: (client, options) => client.validateIdToken('a.b.c', options as never),
  isTokenResponseValid: (client, options) =>
    client.isTokenResponseValid(tokenBody, options as never),
  diagnose: (client, options) => client.diagnose(options as never),
}

/** What running an operation ended in: its value, or what it threw or rejected with. */
async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return await run()
  } catch (error) {
    return error
  }
}

function isUnknownOption(value: unknown, name: string): boolean {
  return (
    value instanceof ConfigurationError &&
    value.invalidAttribute === name &&
    value.message.includes('unknown option')
  )
}

const operations = Object.keys(runners) as OperationName[]
const throwingOperations = operations.filter((name) => name !== 'isTokenResponseValid')

describe('an unknown option name', () => {
  it('requestBackendToken({ scope }) (singular) is refused, listing the valid names, and nothing is sent', async () => {
    const server = fakeServer({
      [discoveryUrl]: () => json(smartConfiguration),
      [smartConfiguration.token_endpoint]: () => json(tokenBody),
    })
    const client = new Client(
      { baseUrl, clientId: 'service', privateKey: ecKeyPem(), kid: 'k1', scopes: ['system/*.rs'] },
      { clientType: 'confidential_asymmetric', fetch: server.fetch },
    )
    const error = await configurationRejection(
      client.requestBackendToken({ scope: ['system/Patient.rs'] } as never),
    )
    expect(error.invalidAttribute).toBe('scope')
    expect(error.validValues).toEqual(expect.arrayContaining(['scopes', 'signal', 'b2b']))
    expect(error.message).toMatch(
      /^unknown option "scope" in options of requestBackendToken; valid options: .*\bscopes\b/,
    )
    expect(server.requests).toHaveLength(0)
  })

  for (const [protocol, make] of [
    ['SMART', smartClient],
    ['UDAP', udapClient],
  ] as const) {
    it.each(throwingOperations)(
      `${protocol} %s: refused with "unknown option" and the valid names, before any request`,
      async (operation) => {
        const server = silentServer()
        const client = make(server.fetch)
        for (const name of ['scope', 'constructor', 'signl']) {
          const options = JSON.parse(`{${JSON.stringify(name)}: 1}`) as Record<string, unknown>
          const error = await outcome(() => runners[operation](client, options))
          expect(isUnknownOption(error, name), `${operation} with ${name}: ${error}`).toBe(true)
          expect((error as ConfigurationError).validValues).toEqual(operationOptionNames[operation])
          expect((error as Error).message).toContain(
            `valid options: ${operationOptionNames[operation].join(', ')}`,
          )
        }
        // `__proto__` as JSON.parse makes it: an own member, unknown like any other.
        const error = await outcome(() =>
          runners[operation](client, JSON.parse('{"__proto__": {"scopes": ["x"]}}')),
        )
        expect(isUnknownOption(error, '__proto__')).toBe(true)
        expect(server.requests).toHaveLength(0)
      },
    )
  }

  it('isTokenResponseValid never throws: an unknown option is a warning naming it, and the response is not valid', () => {
    const { logger, lines } = capturingLogger()
    const client = new Client({ baseUrl }, { logger })
    expect(client.isTokenResponseValid(tokenBody, { flw: 'backend_services' } as never)).toBe(false)
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      'SMART token response non-compliance: unknown option "flw" in options of isTokenResponseValid; valid options: flow; checked as app_launch',
    ])
    expect(client.isTokenResponseValid(tokenBody, { flow: 'app_launch' })).toBe(true)
  })

  it('a session refuses one in accessToken() and refresh(), before any refresh', async () => {
    const server = silentServer()
    const session: Session = smartClient(server.fetch).resumeSession(tokens)
    const waited = await configurationRejection(session.accessToken({ minValidity: 30 } as never))
    expect(waited.invalidAttribute).toBe('minValidity')
    expect(waited.message).toBe(
      'unknown option "minValidity" in options of accessToken; valid options: minValiditySeconds, signal',
    )
    const refreshed = await configurationRejection(session.refresh({ scope: ['x'] } as never))
    expect(refreshed.message).toBe(
      'unknown option "scope" in options of refresh; valid options: scopes, signal',
    )
    expect(server.requests).toHaveLength(0)
  })

  it('reads own members only: an inherited unknown name is not read, so not refused', () => {
    const options = Object.create({ scope: ['x'] })
    expect(() => smartClient().backendTokens(options)).not.toThrow()
  })
})

describe('every declared option name', () => {
  it('the names of each operation include what its options type has always declared', () => {
    const trust = ['trustedAnchors', 'crls', 'community']
    const expected: Readonly<Record<OperationName, readonly string[]>> = {
      serverMetadata: ['signal', ...trust],
      authorizationUrl: ['signal', ...trust, 'launch', 'customScopes', 'method', 'idp'],
      beginAuthorization: ['signal', ...trust, 'launch', 'customScopes', 'method', 'idp', 'store'],
      completeAuthorization: [
        'signal',
        ...trust,
        'store',
        'state',
        'codeVerifier',
        'nonce',
        'onTokens',
      ],
      requestAccessToken: [
        'signal',
        ...trust,
        'code',
        'codeVerifier',
        'clientSecret',
        'privateKey',
        'kid',
      ],
      refreshToken: [
        'signal',
        ...trust,
        'refreshToken',
        'scopes',
        'clientSecret',
        'privateKey',
        'kid',
      ],
      requestBackendToken: ['signal', ...trust, 'scopes', 'privateKey', 'kid', 'b2b', 'clientUri'],
      backendTokens: [...trust, 'scopes', 'b2b', 'clientUri', 'store', 'minValiditySeconds'],
      registerClient: [
        'signal',
        ...trust,
        'registrationEndpoint',
        'authorization',
        'clientUri',
        'certifications',
      ],
      cancelRegistration: ['signal', ...trust, 'clientUri', 'certifications'],
      resumeSession: [...trust, 'onTokens'],
      validateIdToken: ['signal', 'nonce', 'maxAgeSeconds'],
      isTokenResponseValid: ['flow'],
      diagnose: ['signal', 'tryToken'],
    }
    for (const operation of operations) {
      expect(operationOptionNames[operation], operation).toEqual(
        expect.arrayContaining([...expected[operation]]),
      )
    }
  })

  for (const [protocol, make] of [
    ['SMART', smartClient],
    ['UDAP', udapClient],
  ] as const) {
    it.each(operations)(`${protocol} %s accepts each of its names`, async (operation) => {
      const client = make(downServer)
      for (const name of operationOptionNames[operation]) {
        const result = await outcome(() => runners[operation](client, { [name]: undefined }))
        expect(isUnknownOption(result, name), `${operation} refused ${name}: ${result}`).toBe(false)
      }
    })
  }

  it('signal and onTokens work where they always did', async () => {
    const server = fakeServer({
      [discoveryUrl]: () => json(smartConfiguration),
      [smartConfiguration.token_endpoint]: () => json({ ...tokenBody, refresh_token: 'rt-2' }),
    })
    const client = smartClient(server.fetch)
    const signal = new AbortController().signal
    const seen: string[] = []
    const session = client.resumeSession(tokens, {
      onTokens: (fresh) => {
        seen.push(fresh.accessToken)
      },
    })
    expect(await session.accessToken({ minValiditySeconds: 60, signal })).toBe(
      tokenBody.access_token,
    )
    expect(seen).toEqual([tokenBody.access_token])
    expect((await client.serverMetadata({ signal })).tokenEndpoint).toBe(
      smartConfiguration.token_endpoint,
    )
    const store = memoryStore()
    const { state } = await client.beginAuthorization({ store, signal })
    const completed = await client.completeAuthorization(
      `https://app.example.org/cb?code=c0de&state=${state}`,
      { store, signal, onTokens: () => {} },
    )
    expect(completed.tokens.accessToken).toBe(tokenBody.access_token)
  })
})
