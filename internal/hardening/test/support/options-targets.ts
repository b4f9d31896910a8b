/**
 * Every options object the library takes from a caller, as a target for hostile keys and values:
 * the configuration and options of `new Client`, each `Client` operation (SMART and UDAP), the
 * functional APIs of smart and udap, and the crypto backends' option objects. A target knows a
 * valid options object (with which the operation succeeds against a scripted server) and how
 * the library must treat an unknown own member (ADR 0008): refused as an unknown attribute
 * (configuration attributes and `Client` options), refused as an unknown option (each `Client`
 * operation's options), a response that is not valid (`isTokenResponseValid`, which never
 * throws), or ignored (the functional APIs and the backends).
 */
import { Client } from '@fhir-auth/client'
import type { CryptoBackend, FetchLike } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { type ClientKeys, generateClientKeys } from '@fhir-auth/sandbox'
import {
  buildAuthorizationRequest,
  createClientAssertion,
  discoverSmartConfiguration,
  exchangeAuthorizationCode,
  isTokenResponseValid,
  refreshAccessToken,
  registerSmartClient,
  requestBackendServicesToken,
} from '@fhir-auth/smart'
import {
  buildUdapAuthorizationRequest,
  cancelUdapRegistration,
  createAuthenticationToken,
  createSoftwareStatement,
  discoverUdapMetadata,
  exchangeUdapAuthorizationCode,
  normalizeRegistrationMetadata,
  prepareUdapSigner,
  refreshUdapAccessToken,
  registerUdapClient,
  requestUdapClientCredentialsToken,
  verifySignedMetadata,
} from '@fhir-auth/udap'
import {
  createUdapServerIdentity,
  type ScriptedAnswer,
  scriptedFetch,
  type UdapServerIdentity,
  validRegistrationResponse,
  validSmartConfiguration,
  validTokenResponse,
} from '../../src/index.js'

/** The library timeout of every target: short, so a hang is found quickly. */
export const optionsTimeoutMs = 200

/** One options object of one operation. */
export interface OptionsTarget {
  readonly name: string
  /**
   * How an unknown own member is treated: a `ConfigurationError` on it whose message says
   * "unknown attribute" or "unknown option", `false` (with a warning), or nothing.
   */
  readonly unknownMembers: 'unknown attribute' | 'unknown option' | 'not valid' | 'ignored'
  /** True for a diagnostic that never throws, whatever it is given (`isTokenResponseValid`). */
  readonly neverThrows?: true
  /** A fresh valid options object (the operation succeeds with it). */
  valid(): Record<string, unknown>
  /** Runs the operation with `options` in place of the valid object. */
  run(options: unknown): unknown
}

const smartOrigin = 'https://ehr.options.test'
const smartBaseUrl = `${smartOrigin}/fhir`
const udapBaseUrl = 'https://fhir.options.test/r4'
const udapOrigin = new URL(udapBaseUrl).origin
const redirectUri = 'https://app.options.test/callback'

const json = (body: unknown): ScriptedAnswer => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})

/**
 * What the targets share: keys, the UDAP test PKI, backends, a server that answers validly, and
 * two software statements (registration, cancellation) signed once.
 */
export interface OptionsResources {
  readonly ecKeys: ClientKeys
  readonly identity: UdapServerIdentity
  readonly crypto: CryptoBackend
  readonly webCrypto: CryptoBackend
  readonly fetch: FetchLike
  readonly registerStatement: string
  readonly cancelStatement: string
}

export async function createOptionsResources(): Promise<OptionsResources> {
  const [ecKeys, identity] = await Promise.all([
    generateClientKeys('ES384'),
    createUdapServerIdentity(udapBaseUrl),
  ])
  const server = scriptedFetch((call) => {
    const url = call.url.split('?')[0] ?? ''
    if (url === `${smartBaseUrl}/.well-known/smart-configuration`) {
      return json(validSmartConfiguration(smartOrigin))
    }
    if (url === `${udapBaseUrl}/.well-known/udap`) return json(identity.validDocument(new Date()))
    if (url === `${smartOrigin}/token` || url === `${udapOrigin}/token`) {
      return json(validTokenResponse('access-token-Op7Yt2', 'refresh-token-Lk9Mn4'))
    }
    if (url === `${smartOrigin}/reg`) return json(validRegistrationResponse('client-1', 'secret-1'))
    if (url === `${udapOrigin}/register`) {
      const grantTypes = (JSON.parse(call.body ?? '{}') as { software_statement?: string })
        .software_statement
        ? decodeGrantTypes(call.body ?? '')
        : []
      return { status: 201, ...json({ client_id: 'udap-client-1', grant_types: grantTypes }) }
    }
    return { status: 404, body: '' }
  })
  const crypto = createNodeCryptoBackend()
  const [registerStatement, cancelStatement] = await Promise.all([
    softwareStatement(identity, crypto, 'register'),
    softwareStatement(identity, crypto, 'cancel'),
  ])
  return {
    ecKeys,
    identity,
    crypto,
    webCrypto: createWebCryptoBackend(),
    fetch: server.fetch,
    registerStatement,
    cancelStatement,
  }
}

async function softwareStatement(
  identity: UdapServerIdentity,
  crypto: CryptoBackend,
  operation: 'register' | 'cancel',
): Promise<string> {
  const { signer } = await prepareUdapSigner({
    crypto,
    privateKey: identity.client.privateKeyPem,
    certificateChain: identity.client.chainDer,
    clientUri: identity.clientUri,
    advertisedAlgorithms: [],
    now: new Date(),
  })
  return createSoftwareStatement({
    claims: normalizeRegistrationMetadata(
      {
        client_name: 'Options client',
        contacts: ['mailto:ops@options.test'],
        scope: 'system/*.rs',
        ...(operation === 'register' ? { grant_types: ['client_credentials'] } : {}),
      },
      { operation },
    ),
    clientUri: identity.clientUri,
    registrationEndpoint: `${udapOrigin}/register`,
    signer,
  })
}

/** The `grant_types` of the software statement in a registration body: what the server echoes. */
function decodeGrantTypes(body: string): unknown {
  const statement = (JSON.parse(body) as { software_statement: string }).software_statement
  const payload = statement.split('.')[1] ?? ''
  const claims = JSON.parse(new TextDecoder().decode(base64UrlBytes(payload))) as {
    grant_types?: unknown
  }
  return claims.grant_types ?? []
}

function base64UrlBytes(text: string): Uint8Array {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
  return Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) =>
    c.charCodeAt(0),
  )
}

/**
 * Every target. Built before the resources exist (so each target is a test of its own); the
 * targets read them when they run.
 */
export function createOptionsTargets(resources: () => OptionsResources): readonly OptionsTarget[] {
  const ecKeys = () => resources().ecKeys
  const identity = () => resources().identity
  const crypto = () => resources().crypto
  const fetch: FetchLike = (url, init) => resources().fetch(url, init)
  const smartConfig = () => ({
    baseUrl: smartBaseUrl,
    clientId: 'options-app',
    redirectUri,
    scopes: ['launch/patient', 'patient/*.rs'],
    clientSecret: 'client-secret-Hy6Tr3Ew9Qa',
    privateKey: ecKeys().privateKeyPem,
    kid: ecKeys().kid,
  })
  const clientOptions = () => ({ fetch, timeoutMs: optionsTimeoutMs })
  const smartClient = (
    clientType: 'public' | 'confidential_symmetric' | 'confidential_asymmetric',
  ) => new Client(smartConfig(), { ...clientOptions(), clientType, crypto: crypto() })
  const udapClient = () =>
    new Client(
      {
        baseUrl: udapBaseUrl,
        privateKey: identity().client.privateKeyPem,
        certificateChain: identity().client.chainDer,
        scopes: ['system/*.rs'],
      },
      { ...clientOptions(), protocol: 'udap', crypto: crypto() },
    )
  const udapClientRegistered = () =>
    new Client(
      {
        baseUrl: udapBaseUrl,
        clientId: 'udap-client-1',
        privateKey: identity().client.privateKeyPem,
        certificateChain: identity().client.chainDer,
        scopes: ['system/*.rs'],
      },
      { ...clientOptions(), protocol: 'udap', crypto: crypto() },
    )
  /** A registered consumer app (authorization code). */
  const udapCodeClient = () =>
    new Client(
      {
        baseUrl: udapBaseUrl,
        clientId: 'udap-client-1',
        redirectUri,
        privateKey: identity().client.privateKeyPem,
        certificateChain: identity().client.chainDer,
        scopes: ['openid', 'user/*.rs'],
      },
      { ...clientOptions(), protocol: 'udap', flow: 'b2c', crypto: crypto() },
    )
  /** A UDAP signer that signs nothing real: the functional targets need only its shape. */
  const udapSigner = () => ({
    alg: 'ES256',
    certificateChain: identity().client.chainDer,
    sign: async () => new Uint8Array(64),
  })
  const trust = () => ({
    trustedAnchors: [...identity().trust.trustedAnchors],
    crls: [...identity().trust.crls],
  })
  const transport = () => ({ fetch, timeoutMs: optionsTimeoutMs })
  const udapRegistration = () => ({ ...trust(), clientUri: identity().clientUri })
  const udapRegistrationMetadata = {
    client_name: 'Options client',
    contacts: ['mailto:ops@options.test'],
    grant_types: ['client_credentials'],
    scope: 'system/*.rs',
  }
  const { grant_types: _, ...udapCancellationMetadata } = udapRegistrationMetadata
  const signal = () => new AbortController().signal

  const targets: OptionsTarget[] = [
    {
      name: 'new Client: configuration',
      unknownMembers: 'unknown attribute',
      valid: smartConfig,
      run: (options) => new Client(options as never, clientOptions()),
    },
    {
      name: 'new Client: options',
      unknownMembers: 'unknown attribute',
      valid: () => ({
        ...clientOptions(),
        protocol: 'smart',
        clientType: 'public',
        now: () => new Date(),
      }),
      run: (options) => new Client(smartConfig(), options as never),
    },
    {
      name: 'Client (SMART) serverMetadata',
      unknownMembers: 'unknown option',
      valid: () => ({ signal: signal() }),
      run: (options) => smartClient('public').serverMetadata(options as never),
    },
    {
      name: 'Client (SMART) authorizationUrl',
      unknownMembers: 'unknown option',
      valid: () => ({
        launch: 'launch-1',
        customScopes: ['openid'],
        method: 'post',
        signal: signal(),
      }),
      run: (options) => smartClient('public').authorizationUrl(options as never),
    },
    {
      name: 'Client (SMART) requestAccessToken (symmetric)',
      unknownMembers: 'unknown option',
      valid: () => ({
        code: 'code-Xc4Vb7Nm1',
        codeVerifier: 'verifier-Qw2Er5Ty8Ui1Op4As7Df0Gh3Jk6Lz9Xc2Vb5Nm',
        clientSecret: 'per-call-secret-Pl0Ok9',
        signal: signal(),
      }),
      run: (options) => smartClient('confidential_symmetric').requestAccessToken(options as never),
    },
    {
      name: 'Client (SMART) refreshToken (asymmetric)',
      unknownMembers: 'unknown option',
      valid: () => ({
        refreshToken: 'refresh-Mn3Bv6Cx9',
        scopes: ['patient/*.rs'],
        privateKey: ecKeys().privateKeyPem,
        kid: ecKeys().kid,
        signal: signal(),
      }),
      run: (options) => smartClient('confidential_asymmetric').refreshToken(options as never),
    },
    {
      name: 'Client (SMART) requestBackendToken',
      unknownMembers: 'unknown option',
      valid: () => ({
        scopes: ['system/*.rs'],
        privateKey: ecKeys().privateKeyPem,
        kid: ecKeys().kid,
        signal: signal(),
      }),
      run: (options) =>
        smartClient('confidential_asymmetric').requestBackendToken(options as never),
    },
    {
      name: 'Client (SMART) registerClient',
      unknownMembers: 'unknown option',
      valid: () => ({ authorization: 'Bearer initial-Zx8Cv2', signal: signal() }),
      run: (options) =>
        smartClient('public').registerClient({ client_name: 'x' }, options as never),
    },
    {
      name: 'Client isTokenResponseValid',
      unknownMembers: 'not valid',
      neverThrows: true,
      valid: () => ({ flow: 'app_launch' }),
      run: (options) =>
        smartClient('public').isTokenResponseValid(
          validTokenResponse('access-1', 'refresh-1'),
          options as never,
        ),
    },
    {
      name: 'Client (UDAP) serverMetadata',
      unknownMembers: 'unknown option',
      valid: () => ({ ...trust(), signal: signal() }),
      run: (options) => udapClient().serverMetadata(options as never),
    },
    {
      name: 'Client (UDAP) requestBackendToken',
      unknownMembers: 'unknown option',
      valid: () => ({
        ...trust(),
        scopes: ['system/*.rs'],
        b2b: {
          organizationId: 'https://org.options.test/1',
          purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
        },
        signal: signal(),
      }),
      run: (options) => udapClientRegistered().requestBackendToken(options as never),
    },
    {
      name: 'Client (UDAP) registerClient',
      unknownMembers: 'unknown option',
      valid: () => ({ ...udapRegistration(), signal: signal() }),
      run: (options) => udapClient().registerClient(udapRegistrationMetadata, options as never),
    },
    {
      name: 'Client (UDAP) cancelRegistration',
      unknownMembers: 'unknown option',
      valid: () => ({ ...udapRegistration(), signal: signal() }),
      run: (options) => udapClient().cancelRegistration(udapCancellationMetadata, options as never),
    },
    {
      name: 'Client (UDAP) authorizationUrl',
      unknownMembers: 'unknown option',
      valid: () => ({ ...trust(), customScopes: ['user/*.rs'], method: 'post', signal: signal() }),
      run: (options) => udapCodeClient().authorizationUrl(options as never),
    },
    {
      name: 'Client (UDAP) requestAccessToken',
      unknownMembers: 'unknown option',
      valid: () => ({
        ...trust(),
        code: 'code-Ud4Pc7Xz',
        codeVerifier: 'verifier-Kj8Hg5Fd2Sa9Lk6Jh3Gf0Ds7Az4Xc1Vb8Nm5Qw2Er',
        signal: signal(),
      }),
      run: (options) => udapCodeClient().requestAccessToken(options as never),
    },
    {
      name: 'Client (UDAP) refreshToken',
      unknownMembers: 'unknown option',
      valid: () => ({
        ...trust(),
        refreshToken: 'refresh-Ud7Rf2Qp',
        scopes: ['user/*.rs'],
        signal: signal(),
      }),
      run: (options) => udapCodeClient().refreshToken(options as never),
    },
    {
      name: 'smart discoverSmartConfiguration',
      unknownMembers: 'ignored',
      valid: () => ({ baseUrl: smartBaseUrl, ...transport(), signal: signal() }),
      run: (options) => discoverSmartConfiguration(options as never),
    },
    {
      name: 'smart buildAuthorizationRequest',
      unknownMembers: 'ignored',
      valid: () => ({
        authorizationEndpoint: `${smartOrigin}/auth`,
        clientId: 'options-app',
        redirectUri,
        scopes: ['openid'],
        audience: smartBaseUrl,
        launch: 'launch-1',
        method: 'get',
      }),
      run: (options) => buildAuthorizationRequest(options as never),
    },
    {
      name: 'smart exchangeAuthorizationCode',
      unknownMembers: 'ignored',
      valid: () => ({
        ...transport(),
        tokenEndpoint: `${smartOrigin}/token`,
        code: 'code-Jh5Gf8',
        codeVerifier: 'verifier-Rt6Yu9Io2Pa5Sd8Fg1Hj4Kl7Zx0Cv3Bn6Mq9We2Rt5',
        redirectUri,
        clientAuthentication: { type: 'public', clientId: 'options-app' },
        signal: signal(),
      }),
      run: (options) => exchangeAuthorizationCode(options as never),
    },
    {
      name: 'smart refreshAccessToken',
      unknownMembers: 'ignored',
      valid: () => ({
        ...transport(),
        tokenEndpoint: `${smartOrigin}/token`,
        refreshToken: 'refresh-Vb8Nm1',
        clientAuthentication: {
          type: 'confidential_symmetric',
          clientId: 'options-app',
          clientSecret: 'secret-Qa3Ws6',
        },
      }),
      run: (options) => refreshAccessToken(options as never),
    },
    {
      name: 'smart requestBackendServicesToken',
      unknownMembers: 'ignored',
      valid: () => ({
        ...transport(),
        tokenEndpoint: `${smartOrigin}/token`,
        clientId: 'options-backend',
        scopes: ['system/*.rs'],
        signer: { alg: 'ES384', kid: 'k1', sign: async () => new Uint8Array(96) },
      }),
      run: (options) => requestBackendServicesToken(options as never),
    },
    {
      name: 'smart createClientAssertion',
      unknownMembers: 'ignored',
      valid: () => ({
        clientId: 'options-app',
        tokenEndpoint: `${smartOrigin}/token`,
        signer: { alg: 'ES384', kid: 'k1', sign: async () => new Uint8Array(96) },
        lifetimeSeconds: 60,
        now: () => new Date(),
      }),
      run: (options) => createClientAssertion(options as never),
    },
    {
      name: 'smart registerSmartClient',
      unknownMembers: 'ignored',
      valid: () => ({
        ...transport(),
        registrationEndpoint: `${smartOrigin}/reg`,
        metadata: { client_name: 'x' },
        authorization: 'Bearer initial-Ty5Ui8',
      }),
      run: (options) => registerSmartClient(options as never),
    },
    {
      name: 'smart isTokenResponseValid',
      unknownMembers: 'ignored',
      neverThrows: true,
      valid: () => ({ flow: 'backend_services' }),
      run: (options) => isTokenResponseValid(validTokenResponse('a', 'r'), options as never),
    },
    {
      name: 'udap discoverUdapMetadata',
      unknownMembers: 'ignored',
      valid: () => ({
        baseUrl: udapBaseUrl,
        crypto: crypto(),
        ...trust(),
        ...transport(),
        now: () => new Date(),
      }),
      run: (options) => discoverUdapMetadata(options as never),
    },
    {
      name: 'udap verifySignedMetadata',
      unknownMembers: 'ignored',
      valid: () => {
        const document = identity().validDocument(new Date())
        return {
          jwt: document.signed_metadata,
          baseUrl: udapBaseUrl,
          unsignedMetadata: document,
          crypto: crypto(),
          ...trust(),
          now: new Date(),
        }
      },
      run: (options) => verifySignedMetadata(options as never),
    },
    {
      name: 'udap prepareUdapSigner',
      unknownMembers: 'ignored',
      valid: () => ({
        crypto: crypto(),
        privateKey: identity().client.privateKeyPem,
        certificateChain: identity().client.chainDer,
        clientUri: identity().clientUri,
        advertisedAlgorithms: ['ES256'],
        now: new Date(),
      }),
      run: (options) => prepareUdapSigner(options as never),
    },
    {
      name: 'udap createAuthenticationToken',
      unknownMembers: 'ignored',
      valid: () => ({
        issuer: 'udap-client-1',
        tokenEndpoint: `${udapOrigin}/token`,
        signer: udapSigner(),
        extensions: { 'example-extension': { a: 1 } },
      }),
      run: (options) => createAuthenticationToken(options as never),
    },
    {
      name: 'udap requestUdapClientCredentialsToken',
      unknownMembers: 'ignored',
      valid: () => ({
        ...transport(),
        tokenEndpoint: `${udapOrigin}/token`,
        issuer: 'udap-client-1',
        signer: udapSigner(),
        scopes: ['system/*.rs'],
      }),
      run: (options) => requestUdapClientCredentialsToken(options as never),
    },
    {
      name: 'udap buildUdapAuthorizationRequest',
      unknownMembers: 'ignored',
      valid: () => ({
        authorizationEndpoint: `${udapOrigin}/authorize`,
        clientId: 'udap-client-1',
        redirectUri,
        scopes: ['openid', 'user/*.rs'],
        method: 'get',
        nonce: 'nonce-Bt5Yh8',
        idp: 'https://idp.options.test/oidc',
      }),
      run: (options) => buildUdapAuthorizationRequest(options as never),
    },
    {
      name: 'udap exchangeUdapAuthorizationCode',
      unknownMembers: 'ignored',
      valid: () => ({
        ...transport(),
        tokenEndpoint: `${udapOrigin}/token`,
        issuer: 'udap-client-1',
        signer: udapSigner(),
        code: 'code-Wq3Ea6Sd',
        codeVerifier: 'verifier-Zx1Cv4Bn7Mq0We3Rt6Yu9Io2Pa5Sd8Fg1Hj4Kl7',
        redirectUri,
      }),
      run: (options) => exchangeUdapAuthorizationCode(options as never),
    },
    {
      name: 'udap refreshUdapAccessToken',
      unknownMembers: 'ignored',
      valid: () => ({
        ...transport(),
        tokenEndpoint: `${udapOrigin}/token`,
        issuer: 'udap-client-1',
        signer: udapSigner(),
        refreshToken: 'refresh-Op9Iu6Yt',
        scopes: ['user/*.rs'],
      }),
      run: (options) => refreshUdapAccessToken(options as never),
    },
    {
      name: 'udap registerUdapClient',
      unknownMembers: 'ignored',
      valid: () => ({
        ...transport(),
        registrationEndpoint: `${udapOrigin}/register`,
        softwareStatement: resources().registerStatement,
      }),
      run: (options) => registerUdapClient(options as never),
    },
    {
      name: 'udap cancelUdapRegistration',
      unknownMembers: 'ignored',
      valid: () => ({
        ...transport(),
        registrationEndpoint: `${udapOrigin}/register`,
        softwareStatement: resources().cancelStatement,
      }),
      run: (options) => cancelUdapRegistration(options as never),
    },
    ...(
      [
        ['node', () => resources().crypto],
        ['webcrypto', () => resources().webCrypto],
      ] as const
    ).flatMap(([name, backend]) => [
      {
        name: `${name} backend importSigner options`,
        unknownMembers: 'ignored' as const,
        valid: () => ({ profile: 'smart', algorithm: 'ES384', kid: ecKeys().kid }),
        run: (options: unknown) => backend().importSigner(ecKeys().privateKeyPem, options as never),
      },
      {
        name: `${name} backend verifyCertificateChain parameters`,
        unknownMembers: 'ignored' as const,
        valid: () => ({
          chain: identity().client.chainDer,
          trustAnchors: [...identity().trust.trustedAnchors],
          crls: [...identity().trust.crls],
          at: new Date(),
        }),
        run: (options: unknown) => backend().verifyCertificateChain(options as never),
      },
    ]),
  ]
  return targets
}
