import { Client, type TokenResponse } from '@fhir-auth/client'
import { type ClientKeys, generateClientKeys, sandboxDefaultRedirectUri } from '@fhir-auth/sandbox'
import {
  type CapturingLogger,
  createCapturingLogger,
  refusingLoopbackOrigin,
} from '@fhir-auth/test-utils'
import { authorizeWithClient, type CompletedAuthorization, rejectionOf } from './flows.js'
import { startHangingServer } from './local-servers.js'
import {
  appClient,
  appConfig,
  appKinds,
  backendClient,
  type SmartFixture,
} from './smart-fixture.js'

/** A value that must never leak, with a label that says what it is. */
export interface TourSecret {
  readonly label: string
  readonly value: string
}

/** Everything one run of every SMART flow produced, for a secret scan. */
export interface SecretTour {
  readonly logger: CapturingLogger
  /** Plain secrets: client secrets, tokens, codes, verifiers, assertions, initial access token. */
  readonly secrets: readonly TourSecret[]
  /** PEM private keys, scanned by line, body and JWK members. */
  readonly privateKeys: readonly TourSecret[]
  /** Every error a flow failed with, by the name of the failure. */
  readonly errors: ReadonlyMap<string, unknown>
  /** Every `Client` the tour built, by a name. */
  readonly clients: ReadonlyMap<string, Client>
  /** The token responses the tour received (their values are among the secrets). */
  readonly tokenResponses: readonly TokenResponse[]
}

/** Collects what the tour's phases use, receive and fail with. */
class TourRecorder {
  readonly logger = createCapturingLogger()
  readonly secrets: TourSecret[] = []
  readonly privateKeys: TourSecret[] = []
  readonly errors = new Map<string, unknown>()
  readonly clients = new Map<string, Client>()
  readonly tokenResponses: TokenResponse[] = []

  /** Registers a secret value; absent or empty values are ignored. */
  remember(label: string, value: unknown): void {
    if (typeof value === 'string' && value.length > 0) this.secrets.push({ label, value })
  }

  rememberAuthorization(label: string, authorization: CompletedAuthorization): void {
    this.remember(`${label} code`, authorization.code)
    this.remember(`${label} verifier`, authorization.codeVerifier)
  }

  /** Registers the tokens of a response and returns it. */
  keep(label: string, response: TokenResponse): TokenResponse {
    this.tokenResponses.push(response)
    this.remember(`${label} access token`, response.access_token)
    this.remember(`${label} refresh token`, response.refresh_token)
    this.remember(`${label} ID token`, response.id_token)
    return response
  }

  /** Awaits an operation that must fail and keeps its error. */
  async fail(name: string, operation: Promise<unknown>): Promise<void> {
    this.errors.set(name, await rejectionOf(operation))
  }

  /** Keeps a client for the scan of printed objects and returns it. */
  track<T extends Client>(name: string, client: T): T {
    this.clients.set(name, client)
    return client
  }

  result(): SecretTour {
    const seen = new Set<string>()
    const secrets = this.secrets.filter((secret) => {
      if (seen.has(secret.value)) return false
      seen.add(secret.value)
      return true
    })
    return {
      logger: this.logger,
      secrets,
      privateKeys: this.privateKeys,
      errors: this.errors,
      clients: this.clients,
      tokenResponses: this.tokenResponses,
    }
  }
}

/**
 * Runs every SMART flow of the integration suite once, with one capturing logger on every
 * client: code flows for each client type (GET and POST) each followed by refreshes, an EHR
 * launch, backend services with each scope fallback, registrations and flows with the new
 * clients, discovery failure and recovery, and the failure paths (wrong code, replay, wrong
 * secret, foreign and truncated keys, reused refresh token, missing or wrong initial access
 * token, a secret of the wrong type, network failure, timeout). Collects every secret used or
 * received and every error raised.
 */
export async function runSecretTour(fixture: SmartFixture): Promise<SecretTour> {
  const tour = new TourRecorder()
  const foreignKeys = await generateClientKeys('ES384')
  tour.privateKeys.push(
    { label: 'RS384 client key', value: fixture.rs384Keys.privateKeyPem },
    { label: 'ES384 client key', value: fixture.es384Keys.privateKeyPem },
    { label: 'foreign key', value: foreignKeys.privateKeyPem },
  )
  tour.remember('client secret', fixture.symmetricSecret)
  tour.remember('initial access token', fixture.sandbox.initialAccessToken)

  await tourCodeFlowsAndRefreshes(fixture, tour)
  await tourEhrLaunch(fixture, tour)
  await tourBackendServices(fixture, tour, foreignKeys)
  await tourRegistration(fixture, tour)
  await tourCodeFlowFailures(fixture, tour, foreignKeys)
  await tourDiscoveryFailure(fixture, tour)
  await tourTransportFailures(fixture, tour)
  rememberWireCredentials(fixture, tour)
  return tour.result()
}

async function tourCodeFlowsAndRefreshes(fixture: SmartFixture, tour: TourRecorder): Promise<void> {
  for (const kind of appKinds) {
    const client = tour.track(`app ${kind}`, appClient(fixture, kind, {}, { logger: tour.logger }))
    for (const method of ['get', 'post'] as const) {
      const label = `${kind} ${method}`
      const authorization = await authorizeWithClient(client, fixture.sandbox, { method })
      tour.rememberAuthorization(label, authorization)
      const tokens = tour.keep(
        label,
        await client.requestAccessToken({
          code: authorization.code,
          codeVerifier: authorization.codeVerifier,
        }),
      )
      client.isTokenResponseValid(tokens)
      const reduced =
        method === 'post' ? ['launch/patient', 'patient/*.rs', 'offline_access'] : undefined
      tour.keep(
        `${label} refreshed`,
        await client.refreshToken({ refreshToken: String(tokens.refresh_token), scopes: reduced }),
      )
      // Rotation: the first refresh token is spent; using it again fails.
      await tour.fail(
        `${label} reused refresh token`,
        client.refreshToken({ refreshToken: String(tokens.refresh_token) }),
      )
    }
  }
}

async function tourEhrLaunch(fixture: SmartFixture, tour: TourRecorder): Promise<void> {
  const { sandbox } = fixture
  const client = tour.track(
    'EHR launch',
    appClient(
      fixture,
      'symmetric',
      { scopes: ['launch', 'patient/*.rs', 'openid', 'fhirUser'] },
      { logger: tour.logger },
    ),
  )
  const launch = sandbox.createLaunch({ patient: 'patient-ehr', encounter: 'encounter-ehr' })
  const authorization = await authorizeWithClient(client, sandbox, { launch })
  tour.rememberAuthorization('EHR', authorization)
  const exchange = { code: authorization.code, codeVerifier: authorization.codeVerifier }
  tour.keep('EHR', await client.requestAccessToken(exchange))
  await tour.fail('EHR replayed code', client.requestAccessToken(exchange))
}

async function tourBackendServices(
  fixture: SmartFixture,
  tour: TourRecorder,
  foreignKeys: ClientKeys,
): Promise<void> {
  const logger = tour.logger
  for (const algorithm of ['RS384', 'ES384'] as const) {
    const client = tour.track(
      `backend ${algorithm}`,
      backendClient(fixture, algorithm, {}, { logger }),
    )
    tour.keep(
      `backend ${algorithm} per-call`,
      await client.requestBackendToken({ scopes: ['system/Patient.rs'] }),
    )
    tour.keep(`backend ${algorithm} fallback`, await client.requestBackendToken())
    await tour.fail(
      `backend ${algorithm} foreign key`,
      client.requestBackendToken({
        scopes: ['system/*.rs'],
        privateKey: foreignKeys.privateKeyPem,
        kid: foreignKeys.kid,
      }),
    )
    await tour.fail(
      `backend ${algorithm} truncated key`,
      client.requestBackendToken({
        scopes: ['system/*.rs'],
        privateKey: fixture.rs384Keys.privateKeyPem.slice(0, 300),
        kid: 'truncated',
      }),
    )
  }
  const configured = tour.track(
    'backend configured scopes',
    backendClient(fixture, 'ES384', { scopes: ['system/*.rs'] }, { logger }),
  )
  tour.keep('backend configured scopes', await configured.requestBackendToken())
}

async function tourRegistration(fixture: SmartFixture, tour: TourRecorder): Promise<void> {
  const { sandbox } = fixture
  const logger = tour.logger
  const registrar = tour.track(
    'registrar',
    new Client({ baseUrl: sandbox.fhirBaseUrl, allowInsecureLocalhost: true }, { logger }),
  )
  const authorization = `Bearer ${sandbox.initialAccessToken}`
  const symmetric = await registrar.registerClient(
    {
      redirect_uris: [sandboxDefaultRedirectUri],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    { authorization },
  )
  tour.remember('registered client secret', symmetric.client_secret)
  tour.remember('registration access token', symmetric.registration_access_token)
  const keys = await generateClientKeys('RS384')
  tour.privateKeys.push({ label: 'registered backend key', value: keys.privateKeyPem })
  const asymmetric = await registrar.registerClient(
    {
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [keys.publicJwk] },
      scope: 'system/*.rs',
    },
    { authorization, registrationEndpoint: sandbox.endpoints.registration },
  )
  tour.remember('registration access token (asymmetric)', asymmetric.registration_access_token)

  const registeredApp = tour.track(
    'registered symmetric',
    new Client(
      appConfig(fixture, 'symmetric', {
        clientId: symmetric.client_id,
        clientSecret: String(symmetric.client_secret),
      }),
      { clientType: 'confidential_symmetric', logger },
    ),
  )
  const registeredAuthorization = await authorizeWithClient(registeredApp, sandbox)
  tour.rememberAuthorization('registered', registeredAuthorization)
  tour.keep(
    'registered symmetric',
    await registeredApp.requestAccessToken({
      code: registeredAuthorization.code,
      codeVerifier: registeredAuthorization.codeVerifier,
    }),
  )
  const registeredBackend = tour.track(
    'registered backend',
    new Client(
      {
        baseUrl: sandbox.fhirBaseUrl,
        clientId: asymmetric.client_id,
        privateKey: keys.privateKeyPem,
        kid: keys.kid,
        allowInsecureLocalhost: true,
      },
      { clientType: 'confidential_asymmetric', logger },
    ),
  )
  tour.keep(
    'registered backend',
    await registeredBackend.requestBackendToken({ scopes: ['system/*.rs'] }),
  )

  await tour.fail(
    'registration without initial access token',
    registrar.registerClient({ redirect_uris: [sandboxDefaultRedirectUri] }),
  )
  const wrongInitialAccessToken = 'wrong-initial-access-token-0123456789'
  tour.remember('wrong initial access token', wrongInitialAccessToken)
  await tour.fail(
    'registration with a wrong initial access token',
    registrar.registerClient(
      { redirect_uris: [sandboxDefaultRedirectUri] },
      { authorization: `Bearer ${wrongInitialAccessToken}` },
    ),
  )
}

async function tourCodeFlowFailures(
  fixture: SmartFixture,
  tour: TourRecorder,
  foreignKeys: ClientKeys,
): Promise<void> {
  const { sandbox } = fixture
  const logger = tour.logger
  const client = tour.track('failing symmetric', appClient(fixture, 'symmetric', {}, { logger }))
  const authorization = await authorizeWithClient(client, sandbox)
  tour.rememberAuthorization('failing', authorization)
  const wrongCode = 'wrong-code-the-server-never-issued-0123'
  tour.remember('wrong code', wrongCode)
  await tour.fail(
    'wrong code',
    client.requestAccessToken({ code: wrongCode, codeVerifier: authorization.codeVerifier }),
  )
  const exchange = { code: authorization.code, codeVerifier: authorization.codeVerifier }
  const wrongSecret = 'wrong-client-secret-0123456789'
  tour.remember('wrong client secret', wrongSecret)
  await tour.fail(
    'wrong client secret',
    client.requestAccessToken({ ...exchange, clientSecret: wrongSecret }),
  )
  const secretInObject = 'secret-inside-an-object-0123456789'
  tour.remember('secret passed as an object', secretInObject)
  await tour.fail(
    'client secret of the wrong type',
    // A JavaScript caller can pass anything; the error must describe it without echoing it.
    client.requestAccessToken({
      ...exchange,
      clientSecret: { value: secretInObject } as unknown as string,
    }),
  )

  const foreignApp = tour.track(
    'foreign key app',
    appClient(fixture, 'ES384', { privateKey: foreignKeys.privateKeyPem }, { logger }),
  )
  const foreignAuthorization = await authorizeWithClient(foreignApp, sandbox)
  tour.rememberAuthorization('foreign', foreignAuthorization)
  await tour.fail(
    'foreign key code exchange',
    foreignApp.requestAccessToken({
      code: foreignAuthorization.code,
      codeVerifier: foreignAuthorization.codeVerifier,
    }),
  )
}

async function tourDiscoveryFailure(fixture: SmartFixture, tour: TourRecorder): Promise<void> {
  const { sandbox } = fixture
  const client = tour.track(
    'discovery failure',
    appClient(fixture, 'public', {}, { logger: tour.logger }),
  )
  sandbox.setDiscoveryOverride({
    response: { status: 500, body: '{"error":"server_error"}', contentType: 'application/json' },
  })
  try {
    await tour.fail('discovery HTTP 500', client.serverMetadata())
  } finally {
    sandbox.setDiscoveryOverride(undefined)
  }
  await client.serverMetadata()
}

/** Requests that carry secrets to a closed port and to a server that never answers. */
async function tourTransportFailures(fixture: SmartFixture, tour: TourRecorder): Promise<void> {
  const logger = tour.logger
  const down = await refusingLoopbackOrigin()
  const closed = down.origin
  const hanging = await startHangingServer()
  try {
    const down = tour.track(
      'server down',
      appClient(fixture, 'symmetric', { tokenEndpoint: `${closed}/token` }, { logger }),
    )
    const unusedCode = 'code-sent-to-a-closed-port-0123456789'
    tour.remember('code sent to a closed port', unusedCode)
    await tour.fail(
      'token endpoint down',
      down.requestAccessToken({ code: unusedCode, codeVerifier: 'v'.repeat(43) }),
    )
    const hangingBackend = tour.track(
      'server hanging',
      backendClient(
        fixture,
        'RS384',
        { tokenEndpoint: `${hanging.origin}/token` },
        { logger, timeoutMs: 200 },
      ),
    )
    await tour.fail(
      'token endpoint timeout',
      hangingBackend.requestBackendToken({ scopes: ['system/*.rs'] }),
    )
    const hangingRefresh = tour.track(
      'refresh hanging',
      appClient(
        fixture,
        'RS384',
        { tokenEndpoint: `${hanging.origin}/token` },
        { logger, timeoutMs: 200 },
      ),
    )
    const refreshToken = 'refresh-token-sent-to-a-hanging-server-0123'
    tour.remember('refresh token sent to a hanging server', refreshToken)
    await tour.fail('refresh timeout', hangingRefresh.refreshToken({ refreshToken }))
    const registrar = tour.track(
      'registrar (down)',
      new Client({ allowInsecureLocalhost: true }, { logger }),
    )
    await tour.fail(
      'registration endpoint down',
      registrar.registerClient(
        { redirect_uris: [sandboxDefaultRedirectUri] },
        {
          authorization: `Bearer ${fixture.sandbox.initialAccessToken}`,
          registrationEndpoint: `${closed}/reg`,
        },
      ),
    )
  } finally {
    await Promise.all([hanging.close(), down.close()])
  }
}

/** Every client assertion and Basic credential the library sent to the sandbox. */
function rememberWireCredentials(fixture: SmartFixture, tour: TourRecorder): void {
  const tokenPath = new URL(fixture.sandbox.endpoints.token).pathname
  const tokenRequests = fixture.sandbox.requests.filter((request) => request.path === tokenPath)
  for (const [index, request] of tokenRequests.entries()) {
    tour.remember(`client assertion ${index + 1}`, request.form?.client_assertion)
    const header = request.headers.authorization
    if (header?.startsWith('Basic '))
      tour.remember(`Basic credentials ${index + 1}`, header.slice(6))
  }
}
