/**
 * `client.diagnose()` against the SMART sandbox, through `Client`: every check passes for a
 * healthy backend client, and each check's `fail` or `warn` comes with a hint. The `token`
 * check's `invalid_client` mapping has one test per cause, each a real refusal by the sandbox.
 */
import { generateKeyPairSync } from 'node:crypto'
import {
  Client,
  type ClientConfigInput,
  type ClientOptions,
  ConfigurationError,
  type DiagnosticCheck,
  type DiagnosticCheckId,
  type DiagnosticReport,
  publicJwks,
} from '@fhir-auth/client'
import { type SmartSandbox, startSmartSandbox } from '@fhir-auth/sandbox'
import { refusingLoopbackOrigin } from '@fhir-auth/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type JsonDocumentServer, startJsonDocumentServer } from './support/local-servers.js'
import {
  appClient,
  backendClient,
  clientIds,
  type SmartFixture,
  startSmartFixture,
} from './support/smart-fixture.js'

let fixture: SmartFixture
let jwks: JsonDocumentServer
const jwksClientId = 'backend-with-jwks-uri'

beforeAll(async () => {
  fixture = await startSmartFixture()
  jwks = await startJsonDocumentServer(publicJwks([fixture.es384Keys.privateKeyPem]))
  await fixture.sandbox.addClient({
    client_id: jwksClientId,
    token_endpoint_auth_method: 'private_key_jwt',
    grant_types: ['client_credentials'],
    jwks_uri: jwks.url,
    scope: 'system/Patient.rs',
  })
})
afterEach(() => fixture.sandbox.setDiscoveryOverride(undefined))
afterAll(async () => {
  await Promise.all([fixture?.sandbox.close(), jwks?.close()])
})

const kidOf = (pem: string) => publicJwks([pem]).keys[0]?.kid as string

/** The healthy backend client: key published at its jwksUri under its thumbprint. */
function healthyBackend(overrides: ClientConfigInput = {}, options: ClientOptions = {}): Client {
  return backendClient(
    fixture,
    'ES384',
    {
      clientId: jwksClientId,
      kid: kidOf(fixture.es384Keys.privateKeyPem),
      jwksUri: jwks.url,
      scopes: ['system/Patient.rs'],
      ...overrides,
    },
    options,
  )
}

function check(report: DiagnosticReport, id: DiagnosticCheckId): DiagnosticCheck {
  const found = report.checks.find((candidate) => candidate.id === id)
  if (found === undefined) throw new Error(`no ${id} check`)
  return found
}

/** A `warn` or `fail` of `id`, with a hint. */
function expectProblem(
  report: DiagnosticReport,
  id: DiagnosticCheckId,
  status: 'warn' | 'fail',
  message: RegExp,
) {
  const found = check(report, id)
  expect(found, JSON.stringify(found)).toMatchObject({ status })
  expect(found.message).toMatch(message)
  expect(found.hint?.length ?? 0).toBeGreaterThan(10)
  expect(report.ok).toBe(report.checks.every((each) => each.status !== 'fail'))
}

function overrideDiscovery(change: (document: Record<string, unknown>) => void) {
  fixture.sandbox.setDiscoveryOverride({
    document: (document) => {
      change(document)
      return undefined
    },
  })
}

describe('client.diagnose', () => {
  it('passes every check, the token included, for a healthy backend client', async () => {
    const report = await healthyBackend().diagnose({ tryToken: true })
    expect(report.checks.map(({ id, status }) => [id, status])).toEqual([
      ['discovery', 'pass'],
      ['issuer-binding', 'pass'],
      ['capabilities', 'pass'],
      ['pkce', 'pass'],
      ['signing-algorithm', 'pass'],
      ['key-strength', 'pass'],
      ['jwks', 'pass'],
      ['clock', 'pass'],
      ['redirect-uri', 'pass'],
      ['scopes', 'pass'],
      ['token', 'pass'],
    ])
    expect(report.ok).toBe(true)
    expect(check(report, 'token').message).toContain('scope system/Patient.rs')
  })

  it('never holds a secret or key material', async () => {
    const report = await healthyBackend().diagnose({ tryToken: true })
    const text = JSON.stringify(report)
    expect(text).not.toContain('PRIVATE KEY')
    expect(text).not.toMatch(/"d":/)
    const token = fixture.sandbox.requests.at(-1)
    expect(token?.path).toBe('/token')
    const symmetric = await appClient(fixture, 'symmetric').diagnose({ tryToken: true })
    expect(JSON.stringify(symmetric)).not.toContain(fixture.symmetricSecret)
  })

  it('discovery: fails for a base URL without a SMART configuration, warns for a mislabelled one', async () => {
    const missing = await healthyBackend({
      baseUrl: `${fixture.sandbox.origin}/nothing`,
    }).diagnose()
    expectProblem(missing, 'discovery', 'fail', /HTTP 404/)
    expect(missing.ok).toBe(false)
    expect(check(missing, 'capabilities').status).toBe('warn')
    fixture.sandbox.setDiscoveryOverride({ response: { contentType: 'text/plain' } })
    expectProblem(await healthyBackend().diagnose(), 'discovery', 'warn', /served as text\/plain/)
  })

  it('issuer-binding: fails for an issuer nothing vouches for, warns when none is named', async () => {
    overrideDiscovery((document) => {
      document.issuer = `${fixture.sandbox.origin}/oauth2`
    })
    expectProblem(await healthyBackend().diagnose(), 'issuer-binding', 'fail', /is not bound/)
    overrideDiscovery((document) => {
      delete document.issuer
    })
    expectProblem(await healthyBackend().diagnose(), 'issuer-binding', 'warn', /names no issuer/)
  })

  it('capabilities: fails when the client type is not advertised', async () => {
    overrideDiscovery((document) => {
      document.capabilities = ['launch-standalone', 'client-public']
    })
    expectProblem(
      await appClient(fixture, 'symmetric').diagnose(),
      'capabilities',
      'fail',
      /does not advertise confidential_symmetric clients/,
    )
  })

  it('pkce: warns when S256 is not listed (athenahealth), fails when another method is', async () => {
    overrideDiscovery((document) => {
      delete document.code_challenge_methods_supported
    })
    expectProblem(await appClient(fixture, 'public').diagnose(), 'pkce', 'warn', /missing/)
    overrideDiscovery((document) => {
      document.code_challenge_methods_supported = ['plain']
    })
    expectProblem(await appClient(fixture, 'public').diagnose(), 'pkce', 'fail', /not S256/)
  })

  it('signing-algorithm: fails for an algorithm the server does not list, warns without a list', async () => {
    overrideDiscovery((document) => {
      document.token_endpoint_auth_signing_alg_values_supported = ['RS384']
    })
    expectProblem(
      await healthyBackend().diagnose(),
      'signing-algorithm',
      'fail',
      /ES384.*accepts RS384/,
    )
    overrideDiscovery((document) => {
      delete document.token_endpoint_auth_signing_alg_values_supported
    })
    expectProblem(await healthyBackend().diagnose(), 'signing-algorithm', 'warn', /lists no/)
  })

  it('key-strength: fails for an RSA key under 2048 bits', async () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString()
    const report = await healthyBackend({ privateKey: weak, kid: 'weak' }).diagnose()
    expectProblem(report, 'key-strength', 'fail', /1024 bits/)
  })

  it('jwks: warns without a jwksUri, fails for another key under the kid', async () => {
    expectProblem(await healthyBackend({ jwksUri: null }).diagnose(), 'jwks', 'warn', /no jwksUri/)
    const other = await startJsonDocumentServer(
      publicJwks([
        { key: fixture.rs384Keys.privateKeyPem, kid: kidOf(fixture.es384Keys.privateKeyPem) },
      ]),
    )
    try {
      const report = await healthyBackend({ jwksUri: other.url }).diagnose()
      expectProblem(report, 'jwks', 'fail', /not the private key’s public half/)
    } finally {
      await other.close()
    }
  })

  it('clock: warns when this clock is more than 60 s off the server’s', async () => {
    const ahead = () => new Date(Date.now() + 5 * 60_000)
    const report = await healthyBackend({}, { now: ahead }).diagnose()
    expectProblem(report, 'clock', 'warn', /3\d\d s ahead of the server's/)
  })

  it('redirect-uri: fails for plain http off loopback and for a fragment, and is needed for launches', async () => {
    for (const [redirectUri, message] of [
      ['http://app.example.org/callback', /http: on a host that is not loopback/],
      ['https://app.example.org/callback#here', /fragment/],
    ] as const) {
      const report = await appClient(fixture, 'public', { redirectUri }).diagnose()
      expectProblem(report, 'redirect-uri', 'fail', message)
    }
    const loopback = await appClient(fixture, 'public', {
      redirectUri: 'http://127.0.0.1:8080/callback',
    }).diagnose()
    expect(check(loopback, 'redirect-uri').status).toBe('pass')
    const none = await appClient(fixture, 'public', { redirectUri: null }).diagnose()
    expectProblem(none, 'redirect-uri', 'fail', /launches need one/)
  })

  it('scopes: warns for a scope the server does not list', async () => {
    const report = await healthyBackend({
      scopes: ['system/Patient.rs', 'system/Patient.fly'],
    }).diagnose()
    expectProblem(report, 'scopes', 'warn', /not in scopes_supported: system\/Patient\.fly/)
  })

  it('refuses a UDAP client and unknown options', async () => {
    await expect(healthyBackend().diagnose({ tryTokens: true } as never)).rejects.toThrow(
      /unknown option/,
    )
    const udap = new Client(
      { baseUrl: fixture.sandbox.fhirBaseUrl, allowInsecureLocalhost: true },
      { protocol: 'udap' },
    )
    const refusal = await udap.diagnose().catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(ConfigurationError)
    expect((refusal as ConfigurationError).invalidAttribute).toBe('protocol')
  })
})

describe('the token check maps invalid_client to its likely causes', () => {
  async function tokenCheck(client: Client) {
    const report = await client.diagnose({ tryToken: true })
    const token = check(report, 'token')
    expect(token.status).toBe('fail')
    expect(token.message).toMatch(/^the server answered invalid_client/)
    expect(token.causes).toHaveLength(6)
    expect(token.hint).toMatch(/^(most likely|first check): /)
    return token
  }

  it('aud: a token endpoint other than the one the server names', async () => {
    const port = new URL(fixture.sandbox.origin).port
    const token = await tokenCheck(
      healthyBackend({ tokenEndpoint: `http://localhost:${port}/token` }),
    )
    expect(token.causes?.[0]).toBe('aud')
    expect(token.hint).toMatch(/^most likely: the assertion's aud must be exactly the token URL/)
  })

  it('unknown-kid: a kid the JWKS does not hold', async () => {
    const token = await tokenCheck(healthyBackend({ kid: 'not-published' }))
    expect(token.causes?.[0]).toBe('unknown-kid')
  })

  it('jwks-unreachable: a registered JWKS URL the server cannot fetch', async () => {
    const refusing = await refusingLoopbackOrigin()
    try {
      const jwksUri = `${refusing.origin}/jwks.json`
      await fixture.sandbox.addClient({
        client_id: 'backend-unreachable-jwks',
        token_endpoint_auth_method: 'private_key_jwt',
        grant_types: ['client_credentials'],
        jwks_uri: jwksUri,
      })
      const token = await tokenCheck(
        healthyBackend({ clientId: 'backend-unreachable-jwks', jwksUri }),
      )
      expect(token.causes?.[0]).toBe('jwks-unreachable')
    } finally {
      await refusing.close()
    }
  })

  it('algorithm: a key type the server does not accept', async () => {
    const rsaOnly: SmartSandbox = await startSmartSandbox({
      clientAssertionAlgorithms: ['RS384'],
      clients: [
        {
          client_id: clientIds.backendEs384,
          token_endpoint_auth_method: 'private_key_jwt',
          grant_types: ['client_credentials'],
          jwks: { keys: [fixture.es384Keys.publicJwk] },
        },
      ],
    })
    try {
      const token = await tokenCheck(
        backendClient(fixture, 'ES384', {
          baseUrl: rsaOnly.fhirBaseUrl,
          scopes: ['system/Patient.rs'],
        }),
      )
      expect(token.causes?.[0]).toBe('algorithm')
    } finally {
      await rsaOnly.close()
    }
  })

  it('clock-skew: assertions from a clock the server finds wrong', async () => {
    const behind = () => new Date(Date.now() - 10 * 60_000)
    const token = await tokenCheck(healthyBackend({}, { now: behind }))
    expect(token.causes?.[0]).toBe('clock-skew')
  })

  it('client-id: an id the server never registered', async () => {
    const token = await tokenCheck(healthyBackend({ clientId: 'never-registered' }))
    // Nothing local points at it: it is listed, after the causes to check first.
    expect(token.causes).toContain('client-id')
    expect(token.hint).toMatch(/^first check: /)
    expect(token.hint).toContain('clientId must be the id this server')
  })
})
