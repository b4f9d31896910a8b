/**
 * Unit tests of the UDAP implementation behind `Client` (`src/udap/udap-protocol.ts`): the state
 * it keeps between operations — validated metadata per trust inputs, the checked signing
 * identity and its signers per algorithm list, the registration it made — and the order of its
 * checks. The functional UDAP API under it is replaced by recording fakes, so each test sees
 * exactly which calls an operation makes; the end-to-end walk against the UDAP sandbox is in
 * internal/integration-tests.
 */
import { ClientConfig, ConfigurationError, type JwsSigner, silentLogger } from '@fhir-auth/core'
import type * as Udap from '@fhir-auth/udap'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ResolvedClientOptions } from '../src/client-options.js'
import type { UdapFlow } from '../src/flow.js'
import { ProtocolContext } from '../src/protocol-context.js'
import { UdapProtocol } from '../src/udap/udap-protocol.js'
import { configurationRejection } from './support.js'

const udap = vi.hoisted(() => ({
  discoverUdapMetadata: vi.fn(),
  prepareUdapSigner: vi.fn(),
  requestUdapClientCredentialsToken: vi.fn(),
  registerUdapClient: vi.fn(),
  cancelUdapRegistration: vi.fn(),
  exchangeUdapAuthorizationCode: vi.fn(),
  refreshUdapAccessToken: vi.fn(),
  createSoftwareStatement: vi.fn(),
  normalizeRegistrationMetadata: vi.fn(),
}))

vi.mock('@fhir-auth/udap', async (importOriginal) => ({
  ...(await importOriginal<typeof Udap>()),
  ...udap,
}))

const baseUrl = 'https://fhir.example.org/r4'
const tokenEndpoint = 'https://fhir.example.org/oauth/token'
const registrationEndpoint = 'https://fhir.example.org/oauth/register'
const authorizationEndpoint = 'https://fhir.example.org/oauth/authorize'
const unsignedAuthorizationEndpoint = 'https://fhir.example.org/unsigned/authorize'
const redirectUri = 'https://app.example.org/callback'
const clientUri = 'https://client.example.org/app'
const start = new Date('2030-01-01T00:00:00Z')
const trust = { trustedAnchors: ['anchor-pem'], crls: ['crl-pem'] }
const leafNotAfter = new Date('2030-06-01T00:00:00Z')

/** What the implementation reads of `UdapMetadata`. */
function metadata(overrides: Partial<Record<string, unknown>> = {}) {
  return {
    tokenEndpoint,
    registrationEndpoint,
    tokenEndpointAuthSigningAlgValuesSupported: ['RS256', 'ES256'],
    registrationEndpointJwtSigningAlgValuesSupported: ['RS256', 'ES256'],
    requiresB2bExtension: () => false,
    udapAuthorizationExtensionsRequired: [],
    authorizationEndpoint,
    raw: { authorization_endpoint: unsignedAuthorizationEndpoint },
    supportsTieredOAuth: () => true,
    signedClaims: { exp: start.getTime() / 1000 + 3600 },
    validUntil: new Date(start.getTime() + 3_600_000),
    ...overrides,
  }
}

function signer(alg: string): JwsSigner {
  return { alg: alg as JwsSigner['alg'], sign: async () => new Uint8Array(64) }
}

interface Harness {
  readonly protocol: UdapProtocol
  /** Moves the injected clock. */
  advance(ms: number): void
}

function harness(config: Record<string, unknown> = {}, flow: UdapFlow | null = null): Harness {
  let now = start.getTime()
  const options: ResolvedClientOptions = {
    crypto: {
      name: 'fake',
      parseCertificate: async () => ({ subjectAltNameUris: [clientUri] }),
    } as never,
    fetch: undefined,
    timeoutMs: undefined,
    logger: silentLogger,
    now: () => new Date(now),
    basicAuthEncoding: 'form-urlencoded',
  }
  const context = new ProtocolContext(
    new ClientConfig({
      baseUrl,
      privateKey: 'key-pem',
      certificateChain: ['leaf-pem'],
      scopes: ['system/Patient.rs'],
      ...config,
    }),
    options,
    null,
    flow,
  )
  return {
    protocol: new UdapProtocol(context),
    advance: (ms) => {
      now += ms
    },
  }
}

beforeEach(() => {
  for (const fake of Object.values(udap)) fake.mockReset()
  udap.discoverUdapMetadata.mockImplementation(async () => metadata())
  udap.prepareUdapSigner.mockImplementation(async (input: { advertisedAlgorithms: string[] }) => ({
    // The key's preferred algorithm unless the server's list excludes it.
    signer: signer(
      input.advertisedAlgorithms.length === 0 || input.advertisedAlgorithms.includes('RS256')
        ? 'RS256'
        : (input.advertisedAlgorithms[0] as string),
    ),
    leaf: { notAfter: leafNotAfter },
  }))
  udap.requestUdapClientCredentialsToken.mockResolvedValue({ access_token: 'access-1' })
  udap.normalizeRegistrationMetadata.mockImplementation((claims: unknown) => claims)
  udap.createSoftwareStatement.mockResolvedValue('header.statement.signature')
  udap.registerUdapClient.mockResolvedValue({ client_id: 'registered-1' })
  udap.cancelUdapRegistration.mockResolvedValue({ client_id: 'registered-1', grant_types: [] })
  udap.exchangeUdapAuthorizationCode.mockResolvedValue({ access_token: 'access-code' })
  udap.refreshUdapAccessToken.mockResolvedValue({ access_token: 'access-refresh' })
})

describe('UdapProtocol: authorization requests', () => {
  const appConfig = { clientId: 'client-1', redirectUri, scopes: ['openid', 'user/*.rs'] }

  it('use the signed authorization_endpoint (never the unsigned one), with a nonce for openid', async () => {
    const { protocol } = harness(appConfig, 'b2c')
    const { authUrl, nonce } = await protocol.authorizationUrl(trust)
    const url = new URL(authUrl)
    expect(`${url.origin}${url.pathname}`).toBe(authorizationEndpoint)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'client-1',
      redirect_uri: redirectUri,
      scope: 'openid user/*.rs',
      nonce,
      code_challenge_method: 'S256',
    })
    expect(url.searchParams.has('aud')).toBe(false)
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('send no nonce without openid; POST gives params', async () => {
    const { protocol } = harness({ ...appConfig, scopes: ['user/*.rs'] })
    const result = await protocol.authorizationUrl({ ...trust, method: 'post' })
    expect(result).not.toHaveProperty('nonce')
    expect(result.authUrl).toBe(authorizationEndpoint)
    expect(result.params).not.toHaveProperty('nonce')
  })

  it('check method, clientId, scopes, redirectUri, launch and idp before discovery', async () => {
    const attribute = async (config: Record<string, unknown>, options: Record<string, unknown>) =>
      (await configurationRejection(harness(config).protocol.authorizationUrl(options as never)))
        .invalidAttribute
    expect(await attribute({}, { ...trust, method: 'put' })).toBe('method')
    expect(await attribute({ ...appConfig, clientId: null }, trust)).toBe('clientId')
    expect(await attribute({ ...appConfig, scopes: null }, trust)).toBe('scopes')
    expect(await attribute({ ...appConfig, redirectUri: null }, trust)).toBe('redirectUri')
    expect(await attribute(appConfig, { ...trust, launch: 'l-1' })).toBe('launch')
    expect(await attribute(appConfig, { ...trust, idp: 'https://idp.example.org' })).toBe('idp')
    expect(udap.discoverUdapMetadata).not.toHaveBeenCalled()
  })

  it('use the registered client_id when none is configured', async () => {
    const { protocol } = harness({ redirectUri, scopes: ['openid'] })
    await protocol.registerClient({}, { ...trust, clientUri })
    const { authUrl } = await protocol.authorizationUrl(undefined)
    expect(new URL(authUrl).searchParams.get('client_id')).toBe('registered-1')
  })

  it('use the metadata validated earlier, else need the trust inputs; a configured endpoint wins', async () => {
    const fresh = harness(appConfig).protocol
    expect((await configurationRejection(fresh.authorizationUrl(undefined))).invalidAttribute).toBe(
      'trustedAnchors',
    )
    await fresh.serverMetadata(trust)
    await fresh.authorizationUrl(undefined)
    expect(udap.discoverUdapMetadata).toHaveBeenCalledTimes(1)
    const configured = 'https://fhir.example.org/configured/authorize'
    const { authUrl } = await harness({
      ...appConfig,
      authorizationEndpoint: configured,
    }).protocol.authorizationUrl(undefined)
    expect(authUrl.startsWith(`${configured}?`)).toBe(true)
    expect(udap.discoverUdapMetadata).toHaveBeenCalledTimes(1)
  })

  it('refuse a server that signed no authorization_endpoint', async () => {
    udap.discoverUdapMetadata.mockImplementation(async () =>
      metadata({ authorizationEndpoint: undefined }),
    )
    const error = await configurationRejection(harness(appConfig).protocol.authorizationUrl(trust))
    expect(error.invalidAttribute).toBe('authorizationEndpoint')
  })

  describe('tiered_oauth', () => {
    it('adds udap to the scopes and sends idp', async () => {
      const { protocol } = harness(appConfig, 'tiered_oauth')
      const started = await protocol.startAuthorization({
        ...trust,
        idp: 'https://idp.example.org/fhir',
        method: 'post',
      })
      expect(started.scopes).toEqual(['openid', 'user/*.rs', 'udap'])
      expect(started.params).toMatchObject({
        scope: 'openid user/*.rs udap',
        idp: 'https://idp.example.org/fhir',
      })
    })

    it('needs idp unless the scopes are identity scopes only (a data holder at its IdP)', async () => {
      const app = harness(appConfig, 'tiered_oauth').protocol
      expect((await configurationRejection(app.authorizationUrl(trust))).invalidAttribute).toBe(
        'idp',
      )
      for (const scopes of [['openid'], ['openid', 'udap'], ['openid', 'profile', 'email']]) {
        const holder = harness({ ...appConfig, scopes }, 'tiered_oauth').protocol
        const { params } = await holder.authorizationUrl({ ...trust, method: 'post' })
        expect(params).not.toHaveProperty('idp')
        expect(params?.scope?.split(' ')).toContain('udap')
      }
    })

    it('refuses a server without Tiered OAuth', async () => {
      udap.discoverUdapMetadata.mockImplementation(async () =>
        metadata({ supportsTieredOAuth: () => false }),
      )
      const holder = harness({ ...appConfig, scopes: ['openid'] }, 'tiered_oauth').protocol
      const error = await configurationRejection(holder.authorizationUrl(trust))
      expect(error).toMatchObject({ invalidAttribute: 'flow', invalidValue: 'tiered_oauth' })
    })
  })

  it('name the server by its base URL for RFC 9207 and ID tokens', async () => {
    const { protocol } = harness(appConfig)
    expect(await protocol.authorizationIssuer()).toEqual({ issuer: baseUrl, issRequired: false })
    expect(await protocol.openIdProvider()).toEqual({
      issuer: baseUrl,
      jwksUri: undefined,
      algorithms: undefined,
    })
  })
})

describe('UdapProtocol: code exchange and refresh', () => {
  const appConfig = { clientId: 'client-1', redirectUri }

  it('exchanges a code with the token endpoint and signer of the validated metadata', async () => {
    const { protocol } = harness(appConfig)
    const response = await protocol.requestAccessToken({
      code: 'c-1',
      codeVerifier: 'v-1',
      ...trust,
    })
    expect(response).toEqual({ access_token: 'access-code' })
    expect(udap.exchangeUdapAuthorizationCode).toHaveBeenCalledWith(
      expect.objectContaining({
        tokenEndpoint,
        issuer: 'client-1',
        code: 'c-1',
        codeVerifier: 'v-1',
        redirectUri,
        signer: expect.objectContaining({ alg: 'RS256' }),
      }),
    )
  })

  it('refreshes with the metadata validated earlier and the given scopes', async () => {
    const { protocol } = harness(appConfig)
    await protocol.serverMetadata(trust)
    await protocol.refreshToken({ refreshToken: 'r-1', scopes: ['user/Patient.rs', ' '] })
    expect(udap.discoverUdapMetadata).toHaveBeenCalledTimes(1)
    expect(udap.refreshUdapAccessToken).toHaveBeenCalledWith(
      expect.objectContaining({
        tokenEndpoint,
        issuer: 'client-1',
        refreshToken: 'r-1',
        scopes: ['user/Patient.rs'],
      }),
    )
  })

  it('signs as the registered client, with its client URI', async () => {
    const { protocol } = harness({ redirectUri })
    await protocol.registerClient({}, { ...trust, clientUri })
    await protocol.refreshToken({ refreshToken: 'r-1' })
    expect(udap.refreshUdapAccessToken).toHaveBeenCalledWith(
      expect.objectContaining({ issuer: 'registered-1' }),
    )
    expect(udap.prepareUdapSigner).toHaveBeenLastCalledWith(expect.objectContaining({ clientUri }))
  })

  it('refuses SMART credentials, then checks clientId, code, verifier and redirectUri, before any request', async () => {
    const attribute = async (config: Record<string, unknown>, options: Record<string, unknown>) =>
      (await configurationRejection(harness(config).protocol.requestAccessToken(options as never)))
        .invalidAttribute
    const valid = { code: 'c', codeVerifier: 'v', ...trust }
    for (const credential of ['clientSecret', 'privateKey', 'kid']) {
      expect(await attribute(appConfig, { ...valid, [credential]: 'x' })).toBe(credential)
    }
    expect(await attribute({ redirectUri }, valid)).toBe('clientId')
    expect(await attribute(appConfig, { ...valid, code: '' })).toBe('code')
    expect(await attribute(appConfig, { ...valid, codeVerifier: 7 })).toBe('codeVerifier')
    expect(await attribute({ clientId: 'client-1' }, valid)).toBe('redirectUri')
    expect(
      (
        await configurationRejection(
          harness(appConfig).protocol.refreshToken({ refreshToken: ' ', ...trust }),
        )
      ).invalidAttribute,
    ).toBe('refreshToken')
    expect(udap.discoverUdapMetadata).not.toHaveBeenCalled()
    expect(udap.prepareUdapSigner).not.toHaveBeenCalled()
  })

  it('checks the signing identity before discovery', async () => {
    udap.prepareUdapSigner.mockRejectedValueOnce(
      new ConfigurationError({ invalidAttribute: 'certificateChain' }),
    )
    const error = await configurationRejection(
      harness(appConfig).protocol.requestAccessToken({ code: 'c', codeVerifier: 'v', ...trust }),
    )
    expect(error.invalidAttribute).toBe('certificateChain')
    expect(udap.discoverUdapMetadata).not.toHaveBeenCalled()
  })
})

describe('UdapProtocol: client credentials belong to b2b', () => {
  it.each(['b2c', 'tiered_oauth'] as const)(
    'requestBackendToken under %s is a ConfigurationError on flow, with nothing sent',
    async (flow) => {
      const { protocol } = harness({ clientId: 'client-1', tokenEndpoint }, flow)
      const error = await configurationRejection(protocol.requestBackendToken(undefined))
      expect(error).toMatchObject({ invalidAttribute: 'flow', invalidValue: flow })
      expect(error.validValues).toEqual(['b2b'])
      expect(error.message).toContain(`requestBackendToken (client credentials) is for flow b2b`)
      expect(udap.prepareUdapSigner).not.toHaveBeenCalled()
      expect(udap.requestUdapClientCredentialsToken).not.toHaveBeenCalled()
    },
  )
})

describe('UdapProtocol: validated metadata', () => {
  it('validates once per community and trust inputs; other inputs validate again', async () => {
    const { protocol } = harness()
    const first = await protocol.serverMetadata(trust)
    expect(await protocol.serverMetadata({ ...trust })).toBe(first)
    await protocol.serverMetadata({ ...trust, community: 'udap://community.example/' })
    await protocol.serverMetadata({ trustedAnchors: ['another-anchor'], crls: trust.crls })
    expect(udap.discoverUdapMetadata).toHaveBeenCalledTimes(3)
    expect(udap.discoverUdapMetadata.mock.calls[1]?.[0]).toMatchObject({
      baseUrl,
      community: 'udap://community.example/',
    })
  })

  it('keeps no failure: the next call validates again', async () => {
    const { protocol } = harness()
    udap.discoverUdapMetadata.mockRejectedValueOnce(new Error('signed_metadata refused'))
    await expect(protocol.serverMetadata(trust)).rejects.toThrow('signed_metadata refused')
    await protocol.serverMetadata(trust)
    expect(udap.discoverUdapMetadata).toHaveBeenCalledTimes(2)
  })

  it('validates again once the signed metadata has expired', async () => {
    const { protocol, advance } = harness()
    await protocol.serverMetadata(trust)
    advance(3_600_000)
    await protocol.serverMetadata(trust)
    expect(udap.discoverUdapMetadata).toHaveBeenCalledTimes(2)
  })

  it('refuses missing trust inputs before any request', async () => {
    const { protocol } = harness()
    expect(
      (await configurationRejection(protocol.serverMetadata({} as never))).invalidAttribute,
    ).toBe('trustedAnchors')
    expect(
      (
        await configurationRejection(
          protocol.serverMetadata({ trustedAnchors: ['a'], crls: 'crl' } as never),
        )
      ).invalidAttribute,
    ).toBe('crls')
    // crls may be omitted (fetched from the distribution points); revocation is checked.
    expect(
      (
        await configurationRejection(
          protocol.serverMetadata({ trustedAnchors: ['a'], revocation: { fetch: 'no' } } as never),
        )
      ).invalidAttribute,
    ).toBe('revocation')
    expect(udap.discoverUdapMetadata).not.toHaveBeenCalled()
  })
})

describe('UdapProtocol: token requests', () => {
  it('uses the configured client id as iss and the configured token endpoint without discovery', async () => {
    const { protocol } = harness({ clientId: 'client-1', tokenEndpoint })
    await protocol.requestBackendToken(undefined)
    expect(udap.discoverUdapMetadata).not.toHaveBeenCalled()
    expect(udap.requestUdapClientCredentialsToken).toHaveBeenCalledWith(
      expect.objectContaining({ tokenEndpoint, issuer: 'client-1', scopes: ['system/Patient.rs'] }),
    )
  })

  it('refuses a request without scopes, and one without a client id or client URI, before signing', async () => {
    const { protocol } = harness({ scopes: null, clientId: 'client-1', tokenEndpoint })
    expect(
      (await configurationRejection(protocol.requestBackendToken({ scopes: [' '] })))
        .invalidAttribute,
    ).toBe('scopes')
    const anonymous = harness({ tokenEndpoint }).protocol
    expect(
      (await configurationRejection(anonymous.requestBackendToken(undefined))).invalidAttribute,
    ).toBe('clientId')
    expect(udap.prepareUdapSigner).not.toHaveBeenCalled()
  })

  it('signs as the client URI in the unregistered-client flow', async () => {
    const { protocol } = harness({ tokenEndpoint })
    await protocol.requestBackendToken({ clientUri })
    expect(udap.requestUdapClientCredentialsToken).toHaveBeenCalledWith(
      expect.objectContaining({ issuer: clientUri }),
    )
    expect(udap.prepareUdapSigner).toHaveBeenCalledWith(expect.objectContaining({ clientUri }))
  })

  it('reuses the checked signing identity for a minute, then checks the chain again', async () => {
    const { protocol, advance } = harness({ clientId: 'client-1', tokenEndpoint })
    await protocol.requestBackendToken(undefined)
    advance(59_000)
    await protocol.requestBackendToken(undefined)
    expect(udap.prepareUdapSigner).toHaveBeenCalledTimes(1)
    advance(2_000)
    await protocol.requestBackendToken(undefined)
    expect(udap.prepareUdapSigner).toHaveBeenCalledTimes(2)
  })

  it('never reuses an identity beyond the leaf certificate validity', async () => {
    // A leaf that expires in 10 s; the chain checked after it is a renewed one.
    udap.prepareUdapSigner.mockImplementationOnce(async () => ({
      signer: signer('RS256'),
      leaf: { notAfter: new Date(start.getTime() + 10_000) },
    }))
    const { protocol, advance } = harness({ clientId: 'client-1', tokenEndpoint })
    await protocol.requestBackendToken(undefined)
    advance(10_000)
    await protocol.requestBackendToken(undefined)
    expect(udap.prepareUdapSigner).toHaveBeenCalledTimes(2)
  })

  it("imports a signer for a server that does not accept the identity's algorithm, once per list", async () => {
    udap.discoverUdapMetadata.mockImplementation(async () =>
      metadata({ tokenEndpointAuthSigningAlgValuesSupported: ['ES384'] }),
    )
    const { protocol } = harness({ clientId: 'client-1' })
    await protocol.requestBackendToken(trust)
    await protocol.requestBackendToken(trust)
    const lists = udap.prepareUdapSigner.mock.calls.map(
      ([input]) => (input as { advertisedAlgorithms: string[] }).advertisedAlgorithms,
    )
    // The identity (no constraint), then one import for ['ES384'], reused by the second request.
    expect(lists).toEqual([[], ['ES384']])
    const used = udap.requestUdapClientCredentialsToken.mock.calls.map(
      ([input]) => (input as { signer: JwsSigner }).signer.alg,
    )
    expect(used).toEqual(['ES384', 'ES384'])
  })

  it('uses the metadata validated earlier when a token request brings no trust inputs', async () => {
    const { protocol } = harness({ clientId: 'client-1' })
    await protocol.serverMetadata(trust)
    await protocol.requestBackendToken(undefined)
    expect(udap.discoverUdapMetadata).toHaveBeenCalledTimes(1)
    expect(udap.requestUdapClientCredentialsToken).toHaveBeenCalledWith(
      expect.objectContaining({ tokenEndpoint }),
    )
  })

  it('names the trust inputs when there is neither a token endpoint nor validated metadata', async () => {
    const { protocol } = harness({ clientId: 'client-1' })
    expect(
      (await configurationRejection(protocol.requestBackendToken(undefined))).invalidAttribute,
    ).toBe('trustedAnchors')
    expect(udap.requestUdapClientCredentialsToken).not.toHaveBeenCalled()
  })

  it('asks for the hl7-b2b extension on extensions when the server requires it, before signing', async () => {
    udap.discoverUdapMetadata.mockImplementation(async () =>
      metadata({
        requiresB2bExtension: () => true,
        udapAuthorizationExtensionsRequired: ['hl7-b2b'],
      }),
    )
    const { protocol } = harness({ clientId: 'client-1' })
    expect(
      (await configurationRejection(protocol.requestBackendToken(trust))).invalidAttribute,
    ).toBe('extensions')
    const b2b = {
      organizationId: 'https://org.example/1',
      purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
    }
    await protocol.requestBackendToken({ ...trust, b2b })
    expect(udap.requestUdapClientCredentialsToken).toHaveBeenCalledWith(
      expect.objectContaining({ b2b }),
    )
  })
})

describe('UdapProtocol: registration memory', () => {
  it('signs later tokens as the client it registered, and forgets it after cancelling', async () => {
    const { protocol } = harness()
    await protocol.registerClient({ client_name: 'App' }, { ...trust, clientUri })
    expect(udap.createSoftwareStatement).toHaveBeenCalledWith(
      expect.objectContaining({ clientUri, registrationEndpoint }),
    )
    await protocol.requestBackendToken(undefined)
    expect(udap.requestUdapClientCredentialsToken).toHaveBeenLastCalledWith(
      expect.objectContaining({ issuer: 'registered-1' }),
    )
    await protocol.cancelRegistration({ client_name: 'App' }, { ...trust, clientUri })
    expect(udap.normalizeRegistrationMetadata).toHaveBeenLastCalledWith(
      { client_name: 'App' },
      expect.objectContaining({ operation: 'cancel' }),
    )
    expect(
      (await configurationRejection(protocol.requestBackendToken(undefined))).invalidAttribute,
    ).toBe('clientId')
  })

  it('uses the registered client id in place of a configured one (IG STU2: only the new one)', async () => {
    const { protocol } = harness({ clientId: 'configured-1' })
    await protocol.registerClient({}, { ...trust, clientUri })
    await protocol.requestBackendToken(undefined)
    expect(udap.requestUdapClientCredentialsToken).toHaveBeenLastCalledWith(
      expect.objectContaining({ issuer: 'registered-1' }),
    )
  })

  it('keeps the registration when cancelling another client id', async () => {
    const { protocol } = harness()
    await protocol.registerClient({}, { ...trust, clientUri })
    udap.cancelUdapRegistration.mockResolvedValueOnce({ client_id: 'other', grant_types: [] })
    await protocol.cancelRegistration({}, { ...trust, clientUri })
    await protocol.requestBackendToken(undefined)
    expect(udap.requestUdapClientCredentialsToken).toHaveBeenLastCalledWith(
      expect.objectContaining({ issuer: 'registered-1' }),
    )
  })

  it('checks clientUri, certifications and the metadata before any request', async () => {
    const { protocol } = harness()
    expect(
      (await configurationRejection(protocol.registerClient({}, { ...trust } as never)))
        .invalidAttribute,
    ).toBe('clientUri')
    expect(
      (
        await configurationRejection(
          protocol.registerClient({}, { ...trust, clientUri, certifications: 'x' } as never),
        )
      ).invalidAttribute,
    ).toBe('certifications')
    udap.normalizeRegistrationMetadata.mockImplementationOnce(() => {
      throw new ConfigurationError({ invalidAttribute: 'grant_types' })
    })
    expect(
      (await configurationRejection(protocol.registerClient({}, { ...trust, clientUri })))
        .invalidAttribute,
    ).toBe('grant_types')
    expect(udap.discoverUdapMetadata).not.toHaveBeenCalled()
    expect(udap.registerUdapClient).not.toHaveBeenCalled()
  })
})
