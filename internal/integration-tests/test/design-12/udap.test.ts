/**
 * DESIGN §12 applied to UDAP (against the project's UDAP sandbox on loopback): a trailing `/` on
 * baseUrl is not significant for discovery URLs and the `iss` comparison of signed_metadata;
 * an already-aborted signal sends nothing for every UDAP operation; no unhandled rejection when
 * a caller aborts mid-flow; unknown Client options and config attributes are refused.
 */
import { Client, type ClientConfigInput, ConfigurationError, silentLogger } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { recordUnhandledRejections, rejectionOf, settle } from './support/index.js'

const clientUri = 'https://client.example.test/design-12'
const appRedirectUri = 'https://app.example.test/callback'
let sandbox: UdapSandbox
let trust: { trustedAnchors: string[]; crls: string[] }
let identity: { privateKey: string; certificateChain: readonly Uint8Array[] }

beforeAll(async () => {
  sandbox = await startUdapSandbox({
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  })
  trust = {
    trustedAnchors: sandbox.trust.anchors.map((anchor) => anchor.pem),
    crls: sandbox.trust.crls.map((crl) => crl.pem),
  }
  const issued = await sandbox.certificateAuthority.issue({
    commonName: 'design 12',
    sanUris: [clientUri],
    keyType: 'p256',
  })
  identity = { privateKey: issued.privateKeyPem, certificateChain: issued.chainDer }
}, 120_000)
afterAll(() => sandbox?.close())
beforeEach(() => sandbox.clearRequests())

const unhandled = recordUnhandledRejections()

function udapClient(config: Partial<ClientConfigInput> = {}): Client {
  return new Client(
    {
      baseUrl: sandbox.fhirBaseUrl,
      allowInsecureLocalhost: true,
      scopes: ['system/*.rs'],
      redirectUri: appRedirectUri,
      ...identity,
      ...config,
    },
    { protocol: 'udap', logger: silentLogger },
  )
}

const paths = () => sandbox.requests.map((request) => `${request.method} ${request.path}`)

describe('DESIGN §12 (UDAP): a trailing / on baseUrl is not significant', () => {
  it('serverMetadata with baseUrl + "/" fetches {base}/.well-known/udap once and accepts iss = base', async () => {
    const metadata = await udapClient({ baseUrl: `${sandbox.fhirBaseUrl}/` }).serverMetadata(trust)
    expect(metadata.tokenEndpoint).toBe(sandbox.endpoints.token)
    const discoveryPath = new URL(sandbox.endpoints.discovery).pathname
    expect(paths()).toEqual([`GET ${discoveryPath}`])
  })

  it('registration and a backend token with baseUrl + "/" work end to end', async () => {
    const client = udapClient({ baseUrl: `${sandbox.fhirBaseUrl}/` })
    const registered = await client.registerClient(
      {
        client_name: 'design 12',
        contacts: ['mailto:ops@example.test'],
        grant_types: ['client_credentials'],
        scope: 'system/*.rs',
      },
      { clientUri, ...trust },
    )
    expect(typeof registered.client_id).toBe('string')
    const withId = udapClient({
      baseUrl: `${sandbox.fhirBaseUrl}/`,
      clientId: registered.client_id,
    })
    const token = await withId.requestBackendToken({
      ...trust,
      b2b: {
        organizationId: 'https://org.example.test/organizations/42',
        purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
      },
    })
    expect(typeof token.access_token).toBe('string')
  })
})

describe('DESIGN §12 (UDAP): a signal already aborted rejects at once, nothing sent', () => {
  const aborted = () => {
    const controller = new AbortController()
    controller.abort()
    return controller.signal
  }
  const registration = {
    client_name: 'design 12',
    contacts: ['mailto:ops@example.test'],
    grant_types: ['authorization_code'],
    redirect_uris: [appRedirectUri],
    logo_uri: 'https://app.example.test/logo.png',
    scope: 'user/*.rs',
  }
  const operations: ReadonlyArray<[string, (client: Client) => Promise<unknown>]> = [
    ['serverMetadata', (c) => c.serverMetadata({ ...trust, signal: aborted() })],
    [
      'registerClient',
      (c) => c.registerClient(registration, { clientUri, ...trust, signal: aborted() }),
    ],
    [
      'cancelRegistration',
      (c) =>
        c.cancelRegistration(
          { ...registration, grant_types: undefined },
          { clientUri, ...trust, signal: aborted() },
        ),
    ],
    [
      'requestBackendToken',
      (c) => c.requestBackendToken({ clientUri, ...trust, signal: aborted() }),
    ],
    ['authorizationUrl', (c) => c.authorizationUrl({ ...trust, signal: aborted() })],
    ['beginAuthorization', (c) => c.beginAuthorization({ ...trust, signal: aborted() })],
    [
      'requestAccessToken',
      (c) =>
        c.requestAccessToken({
          code: 'code-123456789',
          codeVerifier: 'v'.repeat(43),
          ...trust,
          signal: aborted(),
        }),
    ],
    [
      'refreshToken',
      (c) => c.refreshToken({ refreshToken: 'refresh-123456789', ...trust, signal: aborted() }),
    ],
    [
      'completeAuthorization',
      (c) =>
        c.completeAuthorization(`${appRedirectUri}?code=c0de-123456789&state=s1`, {
          state: 's1',
          codeVerifier: 'v'.repeat(43),
          ...trust,
          signal: aborted(),
        }),
    ],
    [
      'backendTokens().fetch',
      (c) =>
        c
          .backendTokens({ clientUri, ...trust })
          .fetch(`${sandbox.fhirBaseUrl}/Patient`, { signal: aborted() }),
    ],
    [
      'session.refresh',
      (c) =>
        c
          .resumeSession(
            {
              access_token: 'a'.repeat(20),
              token_type: 'Bearer',
              expires_in: 0,
              refresh_token: 'r'.repeat(20),
            },
            trust,
          )
          .refresh({ signal: aborted() }),
    ],
  ]
  for (const [name, run] of operations) {
    it(name, async () => {
      const client = udapClient({ clientId: 'some-client-id' })
      const error = await rejectionOf(run(client))
      expect((error as Error).message).toMatch(/abort/i)
      await settle()
      expect(paths()).toEqual([])
      expect(unhandled.reasons).toEqual([])
    })
  }
})

describe('DESIGN §12 (UDAP): no unhandled rejection when a caller aborts mid-flow', () => {
  it('abort during discovery shared with a second caller that uses bad trust inputs', async () => {
    const client = udapClient({ clientId: 'some-client-id' })
    const controller = new AbortController()
    const first = rejectionOf(client.requestBackendToken({ ...trust, signal: controller.signal }))
    const second = client.serverMetadata(trust).then(
      () => 'ok',
      () => 'failed',
    )
    controller.abort()
    expect(await first).toBeDefined()
    expect(['ok', 'failed']).toContain(await second)
    await settle()
    expect(unhandled.reasons).toEqual([])
  })

  it('abort right after registration starts', async () => {
    const client = udapClient()
    const controller = new AbortController()
    const call = client
      .registerClient(
        {
          client_name: 'design 12',
          contacts: ['mailto:ops@example.test'],
          grant_types: ['client_credentials'],
          scope: 'system/*.rs',
        },
        { clientUri, ...trust, signal: controller.signal },
      )
      .then(
        () => 'registered',
        (error: Error) => error.message,
      )
    setTimeout(() => controller.abort(), 1)
    expect(typeof (await call)).toBe('string')
    await settle()
    expect(unhandled.reasons).toEqual([])
  })
})

describe('DESIGN §12 (UDAP): unknown options and URL checks', () => {
  it('an unknown Client option next to protocol: udap → "unknown attribute"', () => {
    let error: unknown
    try {
      new Client({ baseUrl: sandbox.fhirBaseUrl, allowInsecureLocalhost: true }, {
        protocol: 'udap',
        flw: 'b2c',
      } as never)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as Error).message).toContain('unknown attribute')
    expect((error as Error).message).toContain('flow')
  })

  it('a UDAP client with a plain-HTTP public baseUrl is refused at construction', () => {
    expect(
      () => new Client({ baseUrl: 'http://fhir.example.test/r4' }, { protocol: 'udap' }),
    ).toThrow(ConfigurationError)
  })

  it('a UDAP client with a loopback baseUrl without allowInsecureLocalhost is refused at construction', () => {
    let error: unknown
    try {
      new Client({ baseUrl: sandbox.fhirBaseUrl }, { protocol: 'udap', logger: silentLogger })
    } catch (caught) {
      error = caught
    }
    expect((error as ConfigurationError).invalidAttribute).toBe('baseUrl')
  })
})
