/**
 * Every exchange the library makes, as a target for the hand-written nasties: the functional
 * APIs of smart and udap with an injected `fetch`, and each `Client` operation with the
 * `fetch` option. A target names the URL whose answer the case replaces; every other URL the
 * operation calls (discovery before a registration, say) gets a valid answer.
 */
import { Client } from '@fhir-auth/client'
import type { CryptoBackend, FetchLike, Logger } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { type ClientKeys, generateClientKeys } from '@fhir-auth/sandbox'
import {
  discoverSmartConfiguration,
  exchangeAuthorizationCode,
  refreshAccessToken,
  registerSmartClient,
  requestBackendServicesToken,
} from '@fhir-auth/smart'
import {
  cancelUdapRegistration,
  createSoftwareStatement,
  discoverUdapMetadata,
  normalizeRegistrationMetadata,
  prepareUdapSigner,
  registerUdapClient,
  requestUdapClientCredentialsToken,
} from '@fhir-auth/udap'
import {
  createUdapServerIdentity,
  type FetchCall,
  type ScriptedAnswer,
  toJsonNode,
  type UdapServerIdentity,
  validRegistrationResponse,
  validSmartConfiguration,
  validTokenResponse,
} from '../../src/index.js'
import type { ExchangeShape } from './transport-cases.js'

/** The library timeout every target runs with: short, so hanging cases end quickly. */
export const targetTimeoutMs = 150

/** One exchange to break. */
export interface TransportTarget extends ExchangeShape {
  readonly name: string
  /** Requests to URLs starting with this get the case's answer. */
  readonly hostileUrl: string
  /** The answer for every other URL. */
  otherAnswer(call: FetchCall): ScriptedAnswer
  /** Runs the operation once with this `fetch` and logger. */
  run(fetch: FetchLike, logger: Logger): Promise<unknown>
  /** The secrets the operation sends that the test knows in advance, by name. */
  readonly secrets: Readonly<Record<string, string>>
  readonly privateKeyPems: readonly string[]
  /** The error classes the operation may fail with. */
  readonly errorNames: readonly string[]
}

const smartOrigin = 'https://ehr.hardening.test'
const smartBaseUrl = `${smartOrigin}/fhir`
const smartDiscoveryUrl = `${smartBaseUrl}/.well-known/smart-configuration`
const udapBaseUrl = 'https://fhir.hardening.test/r4'
const udapDiscoveryUrl = `${udapBaseUrl}/.well-known/udap`
const redirectUri = 'https://app.hardening.test/callback'
const b2b = {
  organizationId: 'https://org.hardening.test/1',
  purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
}
const udapRegistration = {
  client_name: 'Hardening client',
  contacts: ['mailto:ops@hardening.test'],
  grant_types: ['client_credentials'],
  scope: 'system/*.rs',
}
const udapCancellation = {
  client_name: 'Hardening client',
  contacts: ['mailto:ops@hardening.test'],
  scope: 'system/*.rs',
}

/** Request secrets: long enough to be found by the scanner, distinct per kind. */
const secrets = {
  code: 'code-3bq8Hc1Zr7Ws0Lk5Yd2Pn9Te',
  codeVerifier: 'verifier-Qm4Xr8Vb2Nc6Lz0Hk3Js7Gd1Fw5Pt9Ay2Eu6Io0Rq',
  clientSecret: 'client-secret-Zk7Pq2Lm9Xv4Rt1Bn6Hc3Wd8',
  refreshToken: 'refresh-token-Gy5Uj0Ik8Ol3Mn7Bv2Cx6Za1',
  initialAccessToken: 'initial-access-token-Re4Ty9Ui2Op7As5Df0',
} as const

/** What the targets share: keys, the UDAP test PKI, a crypto backend. */
export interface TargetResources {
  readonly rsaKeys: ClientKeys
  readonly ecKeys: ClientKeys
  readonly identity: UdapServerIdentity
  readonly crypto: CryptoBackend
}

/** Creates the keys and the UDAP PKI (about half a second). */
export async function createTargetResources(): Promise<TargetResources> {
  const [rsaKeys, ecKeys, identity] = await Promise.all([
    generateClientKeys('RS384'),
    generateClientKeys('ES384'),
    createUdapServerIdentity(udapBaseUrl),
  ])
  return { rsaKeys, ecKeys, identity, crypto: createNodeCryptoBackend() }
}

const notFound: ScriptedAnswer = {
  status: 404,
  body: '{"error":"not_found"}',
  headers: { 'content-type': 'application/json' },
}

function jsonAnswer(body: unknown): ScriptedAnswer {
  return { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
}

/** Every target, by name. */
export function createTransportTargets(
  resources: TargetResources,
): ReadonlyMap<string, TransportTarget> {
  const { rsaKeys, ecKeys, identity, crypto } = resources
  const smartDocument = () => validSmartConfiguration(smartOrigin)
  const smartWithEndpoints = (endpoints: Readonly<Record<string, string>>) => ({
    ...smartDocument(),
    ...endpoints,
  })
  const tokenDocument = () =>
    validTokenResponse('access-token-Hj2Kl5Zx8Cv1', 'refresh-token-Bn4Mq7Wr0Et3')
  const udapDocument = () => identity.validDocument(new Date())
  const udapWithEndpoints = (endpoints: Readonly<Record<string, string>>) => {
    const now = new Date()
    return {
      ...identity.validDocument(now),
      ...endpoints,
      signed_metadata: identity.signNodes(
        toJsonNode(identity.validHeader()),
        toJsonNode({ ...identity.validClaims(now), ...endpoints }),
      ),
    }
  }
  const smartOther = (call: FetchCall): ScriptedAnswer =>
    call.url === smartDiscoveryUrl ? jsonAnswer(smartDocument()) : notFound
  const udapOther = (call: FetchCall): ScriptedAnswer =>
    call.url.startsWith(udapDiscoveryUrl) ? jsonAnswer(udapDocument()) : notFound
  const udapSigner = async () =>
    (
      await prepareUdapSigner({
        crypto,
        privateKey: identity.client.privateKeyPem,
        certificateChain: identity.client.chainDer,
        clientUri: identity.clientUri,
        advertisedAlgorithms: ['ES256'],
        now: new Date(),
      })
    ).signer
  const softwareStatement = async (operation: 'register' | 'cancel') =>
    createSoftwareStatement({
      claims: normalizeRegistrationMetadata(
        operation === 'register' ? udapRegistration : udapCancellation,
        { operation },
      ),
      clientUri: identity.clientUri,
      registrationEndpoint: `${new URL(udapBaseUrl).origin}/register`,
      signer: await udapSigner(),
    })
  const smartClient = (
    fetch: FetchLike,
    logger: Logger,
    clientType: 'public' | 'confidential_symmetric' | 'confidential_asymmetric',
    keys: ClientKeys,
    configured: { tokenEndpoint?: string } = {},
  ) =>
    new Client(
      {
        baseUrl: smartBaseUrl,
        clientId: 'hardening-app',
        redirectUri,
        scopes: ['launch/patient', 'patient/*.rs', 'offline_access'],
        clientSecret: secrets.clientSecret,
        privateKey: keys.privateKeyPem,
        kid: keys.kid,
        ...configured,
      },
      { clientType, fetch, timeoutMs: targetTimeoutMs, logger },
    )
  const udapClient = (
    fetch: FetchLike,
    logger: Logger,
    configured: { clientId?: string; tokenEndpoint?: string } = {},
  ) =>
    new Client(
      {
        baseUrl: udapBaseUrl,
        privateKey: identity.client.privateKeyPem,
        certificateChain: identity.client.chainDer,
        scopes: ['system/*.rs'],
        ...configured,
      },
      { protocol: 'udap', crypto, fetch, timeoutMs: targetTimeoutMs, logger },
    )
  const udapRegistrationOptions = { clientUri: identity.clientUri, ...identity.trust }
  const transport = (fetch: FetchLike) => ({ fetch, timeoutMs: targetTimeoutMs })
  const smartToken = `${smartOrigin}/token`
  const udapOrigin = new URL(udapBaseUrl).origin

  const targets: TransportTarget[] = [
    {
      name: 'smart discoverSmartConfiguration',
      method: 'GET',
      acceptsAnyObject: true,
      hostileUrl: smartDiscoveryUrl,
      validDocument: smartDocument,
      otherAnswer: () => notFound,
      run: (fetch) => discoverSmartConfiguration({ baseUrl: smartBaseUrl, ...transport(fetch) }),
      secrets: {},
      privateKeyPems: [],
      errorNames: ['DiscoveryError'],
    },
    {
      name: 'smart exchangeAuthorizationCode (public)',
      method: 'POST',
      hostileUrl: smartToken,
      validDocument: tokenDocument,
      otherAnswer: () => notFound,
      run: (fetch) =>
        exchangeAuthorizationCode({
          ...transport(fetch),
          tokenEndpoint: smartToken,
          code: secrets.code,
          codeVerifier: secrets.codeVerifier,
          redirectUri,
          clientAuthentication: { type: 'public', clientId: 'hardening-app' },
        }),
      secrets: { code: secrets.code, codeVerifier: secrets.codeVerifier },
      privateKeyPems: [],
      errorNames: ['TokenError'],
    },
    {
      name: 'smart refreshAccessToken (symmetric)',
      method: 'POST',
      hostileUrl: smartToken,
      validDocument: tokenDocument,
      otherAnswer: () => notFound,
      run: (fetch) =>
        refreshAccessToken({
          ...transport(fetch),
          tokenEndpoint: smartToken,
          refreshToken: secrets.refreshToken,
          clientAuthentication: {
            type: 'confidential_symmetric',
            clientId: 'hardening-app',
            clientSecret: secrets.clientSecret,
          },
        }),
      secrets: { refreshToken: secrets.refreshToken, clientSecret: secrets.clientSecret },
      privateKeyPems: [],
      errorNames: ['TokenError'],
    },
    {
      name: 'smart requestBackendServicesToken (RS384)',
      method: 'POST',
      hostileUrl: smartToken,
      validDocument: tokenDocument,
      otherAnswer: () => notFound,
      run: async (fetch) =>
        requestBackendServicesToken({
          ...transport(fetch),
          tokenEndpoint: smartToken,
          clientId: 'hardening-backend',
          signer: await crypto.importSigner(rsaKeys.privateKeyPem, {
            profile: 'smart',
            kid: rsaKeys.kid,
          }),
          scopes: ['system/*.rs'],
        }),
      secrets: {},
      privateKeyPems: [rsaKeys.privateKeyPem],
      errorNames: ['TokenError'],
    },
    {
      name: 'smart registerSmartClient',
      method: 'POST',
      hostileUrl: `${smartOrigin}/reg`,
      validDocument: () => validRegistrationResponse('client-id-Lp3Ok6', 'client-secret-Nb8Vc1Xz4'),
      otherAnswer: () => notFound,
      run: (fetch) =>
        registerSmartClient({
          ...transport(fetch),
          registrationEndpoint: `${smartOrigin}/reg`,
          metadata: { client_name: 'app', redirect_uris: [redirectUri] },
          authorization: `Bearer ${secrets.initialAccessToken}`,
        }),
      secrets: { initialAccessToken: secrets.initialAccessToken },
      privateKeyPems: [],
      errorNames: ['RegistrationError'],
    },
    {
      name: 'udap discoverUdapMetadata',
      method: 'GET',
      hostileUrl: udapDiscoveryUrl,
      validDocument: udapDocument,
      withEndpoints: udapWithEndpoints,
      otherAnswer: () => notFound,
      run: (fetch, logger) =>
        discoverUdapMetadata({
          baseUrl: udapBaseUrl,
          crypto,
          ...identity.trust,
          ...transport(fetch),
          logger,
        }),
      secrets: {},
      privateKeyPems: [],
      errorNames: ['DiscoveryError'],
    },
    {
      name: 'udap registerUdapClient',
      method: 'POST',
      hostileUrl: `${udapOrigin}/register`,
      validDocument: () => ({ client_id: 'udap-client-Qe5Rt8', ...udapRegistration }),
      otherAnswer: () => notFound,
      run: async (fetch) =>
        registerUdapClient({
          ...transport(fetch),
          registrationEndpoint: `${udapOrigin}/register`,
          softwareStatement: await softwareStatement('register'),
        }),
      secrets: {},
      privateKeyPems: [identity.client.privateKeyPem],
      errorNames: ['RegistrationError'],
    },
    {
      name: 'udap cancelUdapRegistration',
      method: 'POST',
      hostileUrl: `${udapOrigin}/register`,
      validDocument: () => ({ client_id: 'udap-client-Qe5Rt8', grant_types: [] }),
      otherAnswer: () => notFound,
      run: async (fetch) =>
        cancelUdapRegistration({
          ...transport(fetch),
          registrationEndpoint: `${udapOrigin}/register`,
          softwareStatement: await softwareStatement('cancel'),
        }),
      secrets: {},
      privateKeyPems: [identity.client.privateKeyPem],
      errorNames: ['RegistrationError'],
    },
    {
      name: 'udap requestUdapClientCredentialsToken',
      method: 'POST',
      hostileUrl: `${udapOrigin}/token`,
      validDocument: () => ({
        access_token: 'udap-access-Tg6Yh9',
        token_type: 'Bearer',
        expires_in: 300,
        scope: 'system/*.rs',
      }),
      otherAnswer: () => notFound,
      run: async (fetch) =>
        requestUdapClientCredentialsToken({
          ...transport(fetch),
          tokenEndpoint: `${udapOrigin}/token`,
          issuer: 'udap-client-Qe5Rt8',
          signer: await udapSigner(),
          scopes: ['system/*.rs'],
          b2b,
        }),
      secrets: {},
      privateKeyPems: [identity.client.privateKeyPem],
      errorNames: ['TokenError'],
    },
    {
      name: 'Client (SMART) serverMetadata',
      method: 'GET',
      acceptsAnyObject: true,
      hostileUrl: smartDiscoveryUrl,
      validDocument: smartDocument,
      otherAnswer: () => notFound,
      run: (fetch, logger) => smartClient(fetch, logger, 'public', ecKeys).serverMetadata(),
      secrets: {},
      privateKeyPems: [],
      errorNames: ['DiscoveryError'],
    },
    {
      name: 'Client (SMART) authorizationUrl with discovery',
      method: 'GET',
      hostileUrl: smartDiscoveryUrl,
      validDocument: smartDocument,
      withEndpoints: smartWithEndpoints,
      otherAnswer: () => notFound,
      run: (fetch, logger) =>
        smartClient(fetch, logger, 'public', ecKeys).authorizationUrl({ method: 'post' }),
      secrets: {},
      privateKeyPems: [],
      errorNames: ['DiscoveryError', 'ConfigurationError'],
    },
    {
      name: 'Client (SMART) requestAccessToken with discovery (symmetric)',
      method: 'GET',
      hostileUrl: smartDiscoveryUrl,
      validDocument: smartDocument,
      withEndpoints: smartWithEndpoints,
      otherAnswer: (call) => (call.url === smartToken ? jsonAnswer(tokenDocument()) : notFound),
      run: (fetch, logger) =>
        smartClient(fetch, logger, 'confidential_symmetric', ecKeys).requestAccessToken({
          code: secrets.code,
          codeVerifier: secrets.codeVerifier,
        }),
      secrets: {
        code: secrets.code,
        codeVerifier: secrets.codeVerifier,
        clientSecret: secrets.clientSecret,
      },
      privateKeyPems: [],
      errorNames: ['DiscoveryError', 'TokenError'],
    },
    {
      name: 'Client (SMART) requestAccessToken (symmetric)',
      method: 'POST',
      hostileUrl: smartToken,
      validDocument: tokenDocument,
      otherAnswer: smartOther,
      run: (fetch, logger) =>
        smartClient(fetch, logger, 'confidential_symmetric', ecKeys).requestAccessToken({
          code: secrets.code,
          codeVerifier: secrets.codeVerifier,
        }),
      secrets: {
        code: secrets.code,
        codeVerifier: secrets.codeVerifier,
        clientSecret: secrets.clientSecret,
      },
      privateKeyPems: [],
      errorNames: ['TokenError'],
    },
    {
      name: 'Client (SMART) refreshToken (ES384)',
      method: 'POST',
      hostileUrl: smartToken,
      validDocument: tokenDocument,
      otherAnswer: smartOther,
      run: (fetch, logger) =>
        smartClient(fetch, logger, 'confidential_asymmetric', ecKeys).refreshToken({
          refreshToken: secrets.refreshToken,
        }),
      secrets: { refreshToken: secrets.refreshToken },
      privateKeyPems: [ecKeys.privateKeyPem],
      errorNames: ['TokenError'],
    },
    {
      name: 'Client (SMART) requestBackendToken (RS384, configured token endpoint)',
      method: 'POST',
      hostileUrl: smartToken,
      validDocument: tokenDocument,
      otherAnswer: () => notFound,
      run: (fetch, logger) =>
        smartClient(fetch, logger, 'confidential_asymmetric', rsaKeys, {
          tokenEndpoint: smartToken,
        }).requestBackendToken({
          scopes: ['system/*.rs'],
        }),
      secrets: {},
      privateKeyPems: [rsaKeys.privateKeyPem],
      errorNames: ['TokenError'],
    },
    {
      name: 'Client (SMART) registerClient',
      method: 'POST',
      hostileUrl: `${smartOrigin}/reg`,
      validDocument: () => validRegistrationResponse('client-id-Lp3Ok6', 'client-secret-Nb8Vc1Xz4'),
      otherAnswer: smartOther,
      run: (fetch, logger) =>
        smartClient(fetch, logger, 'public', ecKeys).registerClient(
          { client_name: 'app', redirect_uris: [redirectUri] },
          { authorization: `Bearer ${secrets.initialAccessToken}` },
        ),
      secrets: { initialAccessToken: secrets.initialAccessToken },
      privateKeyPems: [],
      errorNames: ['RegistrationError'],
    },
    {
      name: 'Client (UDAP) serverMetadata',
      method: 'GET',
      hostileUrl: udapDiscoveryUrl,
      validDocument: udapDocument,
      withEndpoints: udapWithEndpoints,
      otherAnswer: () => notFound,
      run: (fetch, logger) => udapClient(fetch, logger).serverMetadata(identity.trust),
      secrets: {},
      privateKeyPems: [identity.client.privateKeyPem],
      errorNames: ['DiscoveryError'],
    },
    {
      name: 'Client (UDAP) registerClient',
      method: 'POST',
      hostileUrl: `${udapOrigin}/register`,
      validDocument: () => ({ client_id: 'udap-client-Qe5Rt8', ...udapRegistration }),
      otherAnswer: udapOther,
      run: (fetch, logger) =>
        udapClient(fetch, logger).registerClient(udapRegistration, udapRegistrationOptions),
      secrets: {},
      privateKeyPems: [identity.client.privateKeyPem],
      errorNames: ['RegistrationError'],
    },
    {
      name: 'Client (UDAP) cancelRegistration',
      method: 'POST',
      hostileUrl: `${udapOrigin}/register`,
      validDocument: () => ({ client_id: 'udap-client-Qe5Rt8', grant_types: [] }),
      otherAnswer: udapOther,
      run: (fetch, logger) =>
        udapClient(fetch, logger).cancelRegistration(udapCancellation, udapRegistrationOptions),
      secrets: {},
      privateKeyPems: [identity.client.privateKeyPem],
      errorNames: ['RegistrationError'],
    },
    {
      name: 'Client (UDAP) requestBackendToken (configured client id and token endpoint)',
      method: 'POST',
      hostileUrl: `${udapOrigin}/token`,
      validDocument: () => ({
        access_token: 'udap-access-Tg6Yh9',
        token_type: 'Bearer',
        expires_in: 300,
        scope: 'system/*.rs',
      }),
      otherAnswer: udapOther,
      run: (fetch, logger) =>
        udapClient(fetch, logger, {
          clientId: 'udap-client-Qe5Rt8',
          tokenEndpoint: `${udapOrigin}/token`,
        }).requestBackendToken({ b2b }),
      secrets: {},
      privateKeyPems: [identity.client.privateKeyPem],
      errorNames: ['TokenError'],
    },
  ]
  return new Map(targets.map((target) => [target.name, target]))
}

/** The target names, known before the resources exist (for `it.each`). */
export const transportTargetNames: readonly string[] = [
  'smart discoverSmartConfiguration',
  'smart exchangeAuthorizationCode (public)',
  'smart refreshAccessToken (symmetric)',
  'smart requestBackendServicesToken (RS384)',
  'smart registerSmartClient',
  'udap discoverUdapMetadata',
  'udap registerUdapClient',
  'udap cancelUdapRegistration',
  'udap requestUdapClientCredentialsToken',
  'Client (SMART) serverMetadata',
  'Client (SMART) authorizationUrl with discovery',
  'Client (SMART) requestAccessToken with discovery (symmetric)',
  'Client (SMART) requestAccessToken (symmetric)',
  'Client (SMART) refreshToken (ES384)',
  'Client (SMART) requestBackendToken (RS384, configured token endpoint)',
  'Client (SMART) registerClient',
  'Client (UDAP) serverMetadata',
  'Client (UDAP) registerClient',
  'Client (UDAP) cancelRegistration',
  'Client (UDAP) requestBackendToken (configured client id and token endpoint)',
]
