/**
 * No secret used in a request may reach an error message, a `cause` chain or a log line, in
 * any flow and any failure mode — including servers that echo secrets back and custom
 * `fetch` implementations that put the request into their error messages.
 */
import type { FetchLike, JwsSigner } from '@fhir-auth/core'
import { hangingFetch } from '@fhir-auth/test-utils/fake-fetch'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type ClientAuthentication,
  exchangeAuthorizationCode,
  isTokenResponseValid,
  refreshAccessToken,
  registerSmartClient,
  requestBackendServicesToken,
  resolveBackendScopes,
} from '../src/index.js'
import {
  captureLogger,
  createTestKey,
  errorTexts,
  leakedSecrets,
  rejectionOf,
} from './test-support.js'

const secrets = {
  clientSecret: 'cs-SECRET:välue +/=&',
  code: 'code-SECRET-4711',
  codeVerifier: `verifier-SECRET-${'a'.repeat(30)}`,
  refreshToken: 'refresh-SECRET-0815',
  initialAccessToken: 'iat-SECRET-42',
  accessToken: 'access-SECRET-999',
  keyMaterial: '-----BEGIN PRIVATE KEY-----SECRET',
}
const tokenEndpoint = 'https://auth.example.org/token'
const registrationEndpoint = 'https://auth.example.org/register'
/**
 * Everything a server received and could echo back: the raw body, each form value, the
 * Authorization header and, for Basic, the decoded credentials.
 */
function received(init: RequestInit): string {
  const body = typeof init.body === 'string' ? init.body : ''
  const authorization = new Headers(init.headers).get('authorization') ?? ''
  const basic = authorization.startsWith('Basic ') ? atob(authorization.slice(6)) : ''
  const form = [...new URLSearchParams(body).values()]
  return [body, ...form, authorization, basic, ...basic.split(':').map(decodeURIComponent)].join(
    ' ',
  )
}

/** Every answer (or non-answer) a server or transport can give. */
const failureModes: Record<string, FetchLike> = {
  'OAuth error echoing the request': async (_url, init) =>
    Response.json(
      {
        error: 'invalid_grant',
        error_description: `bad: ${received(init)}`,
        error_uri: 'https://as/e',
      },
      { status: 400 },
    ),
  'non-JSON 2xx echoing the request': async (_url, init) =>
    new Response(`oops ${received(init)}`, { status: 200 }),
  'JSON 2xx without access_token or client_id': async (_url, init) =>
    Response.json({
      refresh_token: secrets.refreshToken,
      client_secret: secrets.clientSecret,
      note: received(init),
    }),
  'array 2xx': async (_url, init) => Response.json([received(init)]),
  'HTML 500 echoing the request': async (_url, init) =>
    new Response(`<html>${received(init)}</html>`, { status: 500 }),
  'redirect with secrets in Location': async () =>
    new Response(null, {
      status: 302,
      headers: { location: `https://evil.example/?code=${secrets.code}` },
    }),
  'fetch error quoting the request': async (_url, init) => {
    throw new Error(`cannot send ${String(init.body)} with ${JSON.stringify(init.headers)}`)
  },
  'fetch rejecting with a non-Error': async (_url, init) => Promise.reject(String(init.body)),
  'too-large body': async (_url, init) =>
    new Response(received(init).repeat(1000), { status: 200 }),
  timeout: hangingFetch,
}

let assertions: string[] = []
let signer: JwsSigner

/** Wraps a failure mode so the assertions sent are known secrets too. */
function recording(fetch: FetchLike): FetchLike {
  return (url, init) => {
    const assertion = new URLSearchParams(typeof init.body === 'string' ? init.body : '').get(
      'client_assertion',
    )
    if (assertion) assertions.push(assertion)
    return fetch(url, init)
  }
}

beforeAll(async () => {
  signer = (await createTestKey('ES384')).signer
})

const authentications = (): Record<string, ClientAuthentication> => ({
  public: { type: 'public', clientId: 'app' },
  symmetric: {
    type: 'confidential_symmetric',
    clientId: 'app',
    clientSecret: secrets.clientSecret,
  },
  asymmetric: { type: 'confidential_asymmetric', clientId: 'app', signer },
})

const flows: Record<string, (fetch: FetchLike) => Promise<unknown>> = {
  ...Object.fromEntries(
    ['public', 'symmetric', 'asymmetric'].flatMap((type) => [
      [
        `code exchange (${type})`,
        (fetch: FetchLike) =>
          exchangeAuthorizationCode({
            tokenEndpoint,
            fetch,
            timeoutMs: 30,
            maxResponseBytes: 4096,
            code: secrets.code,
            codeVerifier: secrets.codeVerifier,
            redirectUri: 'https://app.example.org/cb',
            clientAuthentication: authentications()[type]!,
          }),
      ],
      [
        `refresh (${type})`,
        (fetch: FetchLike) =>
          refreshAccessToken({
            tokenEndpoint,
            fetch,
            timeoutMs: 30,
            maxResponseBytes: 4096,
            refreshToken: secrets.refreshToken,
            clientAuthentication: authentications()[type]!,
          }),
      ],
    ]),
  ),
  'backend services': (fetch) =>
    requestBackendServicesToken({
      tokenEndpoint,
      fetch,
      timeoutMs: 30,
      maxResponseBytes: 4096,
      clientId: 'backend',
      signer,
      scopes: ['system/*.rs'],
    }),
  registration: (fetch) =>
    registerSmartClient({
      registrationEndpoint,
      fetch,
      timeoutMs: 30,
      maxResponseBytes: 4096,
      metadata: { client_name: 'x' },
      authorization: `Bearer ${secrets.initialAccessToken}`,
    }),
}

describe('no secret in errors or logs', () => {
  const cases = Object.keys(flows).flatMap((flow) =>
    Object.keys(failureModes).map((mode) => [flow, mode] as const),
  )

  it.each(cases)('%s, %s', async (flow, mode) => {
    assertions = []
    const error = await rejectionOf(() => flows[flow]!(recording(failureModes[mode]!)))
    const texts = errorTexts(error)
    expect(texts.length).toBeGreaterThan(0)
    const known = [...Object.values(secrets), ...assertions]
    expect(leakedSecrets(texts, known)).toEqual([])
    // The form-encoded spelling of the client secret is a secret too.
    expect(
      leakedSecrets(texts, [new URLSearchParams({ s: secrets.clientSecret }).toString().slice(2)]),
    ).toEqual([])
  })

  it('redacts request secrets echoed by the server in errorDescription as well as the message', async () => {
    const error = await rejectionOf(() =>
      flows['code exchange (public)']!(failureModes['OAuth error echoing the request']!),
    )
    const description = (error as { errorDescription?: string }).errorDescription
    expect(description).toContain('[REDACTED]')
    expect(description).not.toContain(secrets.code)
    expect((error as Error).message).toContain('[REDACTED]')
  })

  it('a signer that fails with key material in its message leaks nothing', async () => {
    const failing: JwsSigner = {
      alg: 'RS384',
      kid: 'k',
      sign: async () => {
        throw new Error(`cannot use ${secrets.keyMaterial}`)
      },
    }
    const error = await rejectionOf(() =>
      requestBackendServicesToken({
        tokenEndpoint,
        clientId: 'b',
        signer: failing,
        scopes: ['system/*.rs'],
        fetch: hangingFetch,
      }),
    )
    expect(leakedSecrets(errorTexts(error), Object.values(secrets))).toEqual([])
  })

  it('logs no secret from the diagnostics', () => {
    const logger = captureLogger()
    isTokenResponseValid(
      {
        access_token: secrets.accessToken,
        refresh_token: secrets.refreshToken,
        token_type: secrets.accessToken,
        scope: '',
      },
      { logger },
    )
    isTokenResponseValid(
      { access_token: ' ', token_type: `Bearer ${secrets.accessToken}` },
      { logger, flow: 'backend_services' },
    )
    resolveBackendScopes(undefined, undefined, logger)
    expect(logger.lines.length).toBeGreaterThan(2)
    const texts = logger.lines.map((line) => `${line.message} ${JSON.stringify(line.fields ?? {})}`)
    expect(leakedSecrets(texts, Object.values(secrets))).toEqual([])
  })
})
