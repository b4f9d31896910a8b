/**
 * One run of every flow through `Client` against both sandboxes, collecting what a secret scan
 * needs: every secret used or received, every error, every public object, one capturing
 * logger for all clients. SMART: discovery, GET and POST authorization with code exchange and
 * refresh for the public, symmetric and asymmetric (RS384 and ES384) clients, backend services
 * (RS384, ES384, and the deprecated scope fallback), RFC 7591 registration and a flow with the
 * registered client. UDAP: discovery, registration, modification, a client-credentials token
 * with `hl7-b2b`, cancellation — with a P-256 identity and with an RSA identity loaded from
 * PKCS#12 —, and the unregistered-client flow. Failures: a wrong code, a replayed code, a wrong
 * client secret, registration without the initial access token, a failed discovery, time-outs
 * on both token endpoints, a token after cancellation, a hostile UDAP discovery variant, a
 * wrong PKCS#12 password, and token endpoints echoing a code, a client assertion and a UDAP
 * authentication token in errors longer than the library's 512-character cut.
 */
import {
  Client,
  type ClientConfigInput,
  type ClientOptions,
  type FetchLike,
  loadPkcs12,
  type TokenResponse,
} from '@fhir-auth/client'
import {
  type ClientKeys,
  generateClientKeys,
  type SmartSandbox,
  sandboxDefaultRedirectUri,
  startSmartSandbox,
  startUdapSandbox,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import { testPki } from '@fhir-auth/test-pki'
import { type CapturingLogger, createCapturingLogger } from '@fhir-auth/test-utils'

/** A value that must never leak, labelled with what it is. */
export interface RunSecret {
  readonly label: string
  readonly value: string
}

/** Everything the run produced. */
export interface SecretRun {
  readonly smart: SmartSandbox
  readonly udap: UdapSandbox
  readonly logger: CapturingLogger
  readonly secrets: readonly RunSecret[]
  readonly privateKeyPems: readonly RunSecret[]
  /**
   * The first 8 characters of each secret a server echoed in an error longer than the
   * 512-character cut: a leaked prefix would contain them. Scanned in logs and errors only
   * (every JWS starts alike, and public objects hold signed metadata).
   */
  readonly echoedPrefixes: readonly RunSecret[]
  /** Every expected failure, by name. */
  readonly errors: ReadonlyMap<string, unknown>
  /** Every public object the run created (clients, configs, metadata), by name. */
  readonly objects: ReadonlyMap<string, unknown>
  /** The flows that completed, by name, for the coverage assertion. */
  readonly completed: readonly string[]
  readonly tokenResponses: readonly TokenResponse[]
}

const appScopes = ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access']
const b2b = {
  organizationId: 'https://org.hardening.test/organizations/7',
  organizationName: 'Hardening Clinic',
  purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
}
const udapRegistration = {
  client_name: 'Hardening secrets client',
  contacts: ['mailto:ops@hardening.test'],
  grant_types: ['client_credentials'],
  scope: 'system/*.rs',
}
const udapCancellation = {
  client_name: 'Hardening secrets client',
  contacts: ['mailto:ops@hardening.test'],
  scope: 'system/*.rs',
}

/** Records what the run uses, receives and fails with. */
class RunRecorder {
  readonly logger = createCapturingLogger()
  readonly secrets: RunSecret[] = []
  readonly privateKeyPems: RunSecret[] = []
  readonly echoedPrefixes: RunSecret[] = []
  readonly errors = new Map<string, unknown>()
  readonly objects = new Map<string, unknown>()
  readonly completed: string[] = []
  readonly tokenResponses: TokenResponse[] = []

  secret(label: string, value: unknown): void {
    if (typeof value === 'string' && value.length >= 8) this.secrets.push({ label, value })
  }

  tokens(label: string, response: TokenResponse): TokenResponse {
    this.tokenResponses.push(response)
    this.secret(`${label} access token`, response.access_token)
    this.secret(`${label} refresh token`, response.refresh_token)
    this.secret(`${label} ID token`, response.id_token)
    this.completed.push(label)
    return response
  }

  object<T>(name: string, value: T): T {
    this.objects.set(name, value)
    return value
  }

  /** Awaits an operation that must fail; keeps the error (or a marker when it succeeded). */
  async failure(name: string, operation: () => Promise<unknown>): Promise<void> {
    try {
      await operation()
      this.errors.set(name, new Error(`expected failure "${name}" succeeded`))
    } catch (error) {
      this.errors.set(name, error)
    }
  }
}

/** A `fetch` that never answers POSTs to `path` (the time-out cases) and passes the rest on. */
function hangingOn(path: string): FetchLike {
  return (url, init) =>
    new URL(url).pathname === path && init.method === 'POST'
      ? new Promise<Response>(() => {})
      : globalThis.fetch(url, init)
}

/** Where an echoing token endpoint puts the echoed form member in its error description. */
type EchoPlacement = 'straddling the cut' | 'whole'

/**
 * A `fetch` whose token endpoint answers a POST with an OAuth error quoting one member of the
 * request form, in an `error_description` (and `error_uri`) longer than the 512 characters the
 * library keeps: the redaction must see the whole secret before anything is cut. Other requests
 * pass on to the sandbox.
 */
function echoingTokenEndpoint(
  run: RunRecorder,
  label: string,
  member: string,
  placement: EchoPlacement,
  minimumLength = 8,
): FetchLike {
  return async (url, init) => {
    if (!(new URL(url).pathname.endsWith('/token') && init.method === 'POST')) {
      return globalThis.fetch(url, init)
    }
    const value = new URLSearchParams(String(init.body)).get(member) ?? ''
    if (value.length < minimumLength) {
      throw new Error(`${label}: the ${member} sent has ${value.length} characters`)
    }
    run.secret(`${label} ${member}`, value)
    run.echoedPrefixes.push({ label: `${label} ${member} (prefix)`, value: value.slice(0, 8) })
    // Straddling: the value starts 12 characters before the cut, so a cut-then-redact leaves 12.
    const padding = placement === 'straddling the cut' ? 'x'.repeat(500) : 'could not verify '
    const body = {
      error: 'invalid_grant',
      error_description: `${padding}${value} was refused`,
      error_uri: `https://errors.hardening.test/?${padding}${encodeURIComponent(value)}`,
    }
    return new Response(JSON.stringify(body), {
      status: 400,
      headers: { 'content-type': 'application/json' },
    })
  }
}

/** Starts both sandboxes and runs every flow once. The caller closes the sandboxes. */
export async function runEveryFlow(): Promise<SecretRun> {
  const run = new RunRecorder()
  const [rsKeys, esKeys] = await Promise.all([
    generateClientKeys('RS384'),
    generateClientKeys('ES384'),
  ])
  const symmetricSecret = `symmetric-secret-${crypto.randomUUID()}`
  const smart = await startSmartSandbox({
    clients: [
      { client_id: 'h-public', token_endpoint_auth_method: 'none' },
      {
        client_id: 'h-symmetric',
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret: symmetricSecret,
      },
      {
        client_id: 'h-rs384',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [rsKeys.publicJwk] },
      },
      {
        client_id: 'h-es384',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [esKeys.publicJwk] },
      },
    ],
    requestLogLimit: 20_000,
  })
  const udap = await startUdapSandbox({
    allowUnregisteredClients: true,
    clientTrust: {
      anchors: testPki.trustAnchors.map((anchor) => anchor.pem),
      crls: testPki.currentCrls.map((crl) => crl.pem),
    },
    requestLogLimit: 20_000,
  })
  run.secret('symmetric client secret', symmetricSecret)
  run.secret('initial access token', smart.initialAccessToken)
  run.privateKeyPems.push({ label: 'SMART RS384 key', value: rsKeys.privateKeyPem })
  run.privateKeyPems.push({ label: 'SMART ES384 key', value: esKeys.privateKeyPem })

  await smartFlows(run, smart, { rsKeys, esKeys, symmetricSecret })
  await udapFlows(run, udap)
  collectWireSecrets(run, smart, udap)
  return {
    smart,
    udap,
    logger: run.logger,
    secrets: dedupe(run.secrets),
    privateKeyPems: run.privateKeyPems,
    echoedPrefixes: run.echoedPrefixes,
    errors: run.errors,
    objects: run.objects,
    completed: run.completed,
    tokenResponses: run.tokenResponses,
  }
}

interface SmartKeys {
  readonly rsKeys: ClientKeys
  readonly esKeys: ClientKeys
  readonly symmetricSecret: string
}

async function smartFlows(run: RunRecorder, sandbox: SmartSandbox, keys: SmartKeys): Promise<void> {
  const config = (overrides: Partial<ClientConfigInput>): ClientConfigInput => ({
    baseUrl: sandbox.fhirBaseUrl,
    allowInsecureLocalhost: true,
    redirectUri: sandboxDefaultRedirectUri,
    scopes: appScopes,
    ...overrides,
  })
  const client = (name: string, overrides: Partial<ClientConfigInput>, options: ClientOptions) =>
    run.object(`client ${name}`, new Client(config(overrides), { logger: run.logger, ...options }))

  const discovering = client('discovery', { clientId: 'h-public' }, {})
  run.object('SMART metadata', await discovering.serverMetadata())
  run.completed.push('SMART discovery')

  const appClients = [
    client('public', { clientId: 'h-public' }, { clientType: 'public' }),
    client(
      'symmetric',
      { clientId: 'h-symmetric', clientSecret: keys.symmetricSecret },
      { clientType: 'confidential_symmetric' },
    ),
    client(
      'RS384',
      { clientId: 'h-rs384', privateKey: keys.rsKeys.privateKeyPem, kid: keys.rsKeys.kid },
      { clientType: 'confidential_asymmetric' },
    ),
    client(
      'ES384',
      { clientId: 'h-es384', privateKey: keys.esKeys.privateKeyPem, kid: keys.esKeys.kid },
      { clientType: 'confidential_asymmetric' },
    ),
  ]
  for (const app of appClients) {
    for (const method of ['get', 'post'] as const) {
      const label = `SMART ${app.config.clientId} ${method}`
      const { code, codeVerifier } = await authorize(run, sandbox, app, method, label)
      const tokens = run.tokens(label, await app.requestAccessToken({ code, codeVerifier }))
      app.isTokenResponseValid(tokens)
      run.tokens(
        `${label} refresh`,
        await app.refreshToken({ refreshToken: String(tokens.refresh_token) }),
      )
      if (method === 'get') {
        await run.failure(`${label} replayed code`, () =>
          app.requestAccessToken({ code, codeVerifier }),
        )
      }
    }
  }
  const [publicApp, symmetricApp, rsApp, esApp] = appClients as [Client, Client, Client, Client]

  run.tokens('SMART backend RS384', await rsApp.requestBackendToken({ scopes: ['system/*.rs'] }))
  run.tokens(
    'SMART backend ES384',
    await esApp.requestBackendToken({ scopes: ['system/Patient.rs'] }),
  )
  // No scopes configured or passed: the deprecated system/*.rs fallback (0.4.x) with its warning.
  const fallback = run.object(
    'client backend scope fallback',
    new Client(
      {
        baseUrl: sandbox.fhirBaseUrl,
        allowInsecureLocalhost: true,
        clientId: 'h-es384',
        privateKey: keys.esKeys.privateKeyPem,
        kid: keys.esKeys.kid,
      },
      { clientType: 'confidential_asymmetric', logger: run.logger },
    ),
  )
  const fallbackTokens = run.tokens(
    'SMART backend scope fallback',
    await fallback.requestBackendToken(),
  )
  fallback.isTokenResponseValid(fallbackTokens, { flow: 'backend_services' })

  const registered = await publicApp.registerClient(
    {
      client_name: 'Hardening registered app',
      redirect_uris: [sandboxDefaultRedirectUri],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    },
    { authorization: `Bearer ${sandbox.initialAccessToken}` },
  )
  run.completed.push('SMART registration')
  run.secret('registered client secret', registered.client_secret)
  run.secret('registration access token', registered.registration_access_token)
  const registeredApp = client(
    'registered',
    { clientId: registered.client_id, clientSecret: String(registered.client_secret) },
    { clientType: 'confidential_symmetric' },
  )
  const registeredAuthorization = await authorize(
    run,
    sandbox,
    registeredApp,
    'get',
    'SMART registered',
  )
  run.tokens('SMART registered', await registeredApp.requestAccessToken(registeredAuthorization))

  await run.failure('SMART wrong code', () =>
    publicApp.requestAccessToken({
      code: 'wrong-code-not-issued-by-anyone',
      codeVerifier: 'v'.repeat(43),
    }),
  )
  const forWrongSecret = await authorize(run, sandbox, symmetricApp, 'get', 'SMART wrong secret')
  await run.failure('SMART wrong client secret', () =>
    symmetricApp.requestAccessToken({
      ...forWrongSecret,
      clientSecret: 'wrong-secret-for-the-symmetric-app',
    }),
  )
  run.secret('wrong client secret', 'wrong-secret-for-the-symmetric-app')
  await run.failure('SMART registration without initial access token', () =>
    publicApp.registerClient({ client_name: 'x', redirect_uris: [sandboxDefaultRedirectUri] }),
  )
  await run.failure('SMART registration with a wrong initial access token', () =>
    publicApp.registerClient(
      { client_name: 'x', redirect_uris: [sandboxDefaultRedirectUri] },
      { authorization: 'Bearer wrong-initial-access-token-value' },
    ),
  )
  run.secret('wrong initial access token', 'wrong-initial-access-token-value')
  sandbox.setDiscoveryOverride({ response: { status: 500, body: 'down' } })
  await run.failure('SMART discovery failure', () =>
    client('failed discovery', { clientId: 'h-public' }, {}).serverMetadata(),
  )
  sandbox.setDiscoveryOverride(undefined)
  const slowApp = client(
    'time-out',
    { clientId: 'h-symmetric', clientSecret: keys.symmetricSecret },
    { clientType: 'confidential_symmetric', fetch: hangingOn('/token'), timeoutMs: 300 },
  )
  const forTimeout = await authorize(run, sandbox, slowApp, 'get', 'SMART time-out')
  await run.failure('SMART token time-out', () => slowApp.requestAccessToken(forTimeout))
  // The public GET flow's first refresh token was rotated away by its refresh.
  await run.failure('SMART refresh with a spent refresh token', () =>
    publicApp.refreshToken({ refreshToken: String(run.tokenResponses[0]?.refresh_token) }),
  )

  // Long echoes: a server quoting a secret in an error longer than the library's 512-character cut.
  const codeEcho = client(
    'long echo (code)',
    { clientId: 'h-public' },
    {
      clientType: 'public',
      fetch: echoingTokenEndpoint(run, 'SMART long echo', 'code', 'straddling the cut'),
    },
  )
  const forEcho = await authorize(run, sandbox, codeEcho, 'get', 'SMART long echo')
  await run.failure('SMART long echo (code near the cut)', () =>
    codeEcho.requestAccessToken(forEcho),
  )
  const assertionEcho = client(
    'long echo (assertion)',
    { clientId: 'h-rs384', privateKey: keys.rsKeys.privateKeyPem, kid: keys.rsKeys.kid },
    {
      clientType: 'confidential_asymmetric',
      fetch: echoingTokenEndpoint(run, 'SMART long echo', 'client_assertion', 'whole', 513),
    },
  )
  await run.failure('SMART long echo (client_assertion over 512 characters)', () =>
    assertionEcho.requestBackendToken({ scopes: ['system/*.rs'] }),
  )
}

/** Authorizes with the sandbox's headless user agent; records code and verifier as secrets. */
async function authorize(
  run: RunRecorder,
  sandbox: SmartSandbox,
  client: Client,
  method: 'get' | 'post',
  label: string,
): Promise<{ code: string; codeVerifier: string }> {
  const request = await client.authorizationUrl({ method })
  const result = await sandbox.authorize(
    request.params === undefined
      ? { url: request.authUrl }
      : { endpoint: request.authUrl, params: request.params },
  )
  if (result.code === undefined)
    throw new Error(`${label}: the sandbox gave no code (${result.error ?? 'no error'})`)
  run.secret(`${label} code`, result.code)
  run.secret(`${label} verifier`, request.codeVerifier)
  return { code: result.code, codeVerifier: request.codeVerifier }
}

async function udapFlows(run: RunRecorder, sandbox: UdapSandbox): Promise<void> {
  const trust = {
    trustedAnchors: sandbox.trust.anchors.map((anchor) => anchor.pem),
    crls: sandbox.trust.crls.map((crl) => crl.pem),
  }
  const client = (name: string, config: Partial<ClientConfigInput>, options: ClientOptions = {}) =>
    run.object(
      `client ${name}`,
      new Client(
        {
          baseUrl: sandbox.fhirBaseUrl,
          allowInsecureLocalhost: true,
          scopes: ['system/*.rs'],
          ...config,
        },
        { protocol: 'udap', logger: run.logger, ...options },
      ),
    )

  const ecUri = 'https://client.hardening.test/secrets-ec'
  const ecCertificate = await sandbox.certificateAuthority.issue({
    commonName: 'Secrets EC client',
    sanUris: [ecUri],
    keyType: 'p256',
  })
  run.privateKeyPems.push({ label: 'UDAP P-256 key', value: ecCertificate.privateKeyPem })
  const ecClient = client('UDAP P-256', {
    privateKey: ecCertificate.privateKeyPem,
    certificateChain: ecCertificate.chainDer,
  })
  run.object('UDAP metadata', await ecClient.serverMetadata(trust))
  run.completed.push('UDAP discovery')
  const registered = await ecClient.registerClient(udapRegistration, { clientUri: ecUri, ...trust })
  run.completed.push('UDAP registration')
  await ecClient.registerClient(
    { ...udapRegistration, client_name: 'Hardening secrets client (renamed)' },
    { clientUri: ecUri, ...trust },
  )
  run.completed.push('UDAP modification')
  run.tokens('UDAP P-256 token', await ecClient.requestBackendToken({ b2b }))
  await ecClient.cancelRegistration(udapCancellation, { clientUri: ecUri, ...trust })
  run.completed.push('UDAP cancellation')
  await run.failure('UDAP token after cancellation', () =>
    client('UDAP cancelled', {
      clientId: registered.client_id,
      privateKey: ecCertificate.privateKeyPem,
      certificateChain: ecCertificate.chainDer,
    }).requestBackendToken({ b2b, ...trust }),
  )

  const pkcs12Leaf = testPki.leaves['rsa-client']
  run.secret('PKCS#12 password', pkcs12Leaf.pkcs12Password)
  run.privateKeyPems.push({ label: 'PKCS#12 RSA key', value: pkcs12Leaf.privateKeyPkcs8Pem })
  const identity = await loadPkcs12(pkcs12Leaf.pkcs12, pkcs12Leaf.pkcs12Password)
  run.completed.push('PKCS#12 load')
  const rsaUri = pkcs12Leaf.sanUris[0] ?? ''
  const rsaClient = client('UDAP PKCS#12 RSA', {
    privateKey: identity.privateKey,
    certificateChain: identity.certificateChain,
  })
  await rsaClient.registerClient(udapRegistration, { clientUri: rsaUri, ...trust })
  run.tokens('UDAP RSA token', await rsaClient.requestBackendToken({ b2b }))
  await rsaClient.cancelRegistration(udapCancellation, { clientUri: rsaUri, ...trust })

  const unregisteredUri = 'https://client.hardening.test/unregistered'
  const unregisteredCertificate = await sandbox.certificateAuthority.issue({
    commonName: 'Unregistered client',
    sanUris: [unregisteredUri],
    keyType: 'p384',
  })
  run.privateKeyPems.push({ label: 'UDAP P-384 key', value: unregisteredCertificate.privateKeyPem })
  const unregistered = client('UDAP unregistered', {
    privateKey: unregisteredCertificate.privateKeyPem,
    certificateChain: unregisteredCertificate.chainDer,
  })
  run.tokens(
    'UDAP unregistered token',
    await unregistered.requestBackendToken({ clientUri: unregisteredUri, b2b, ...trust }),
  )

  await run.failure('UDAP wrong PKCS#12 password', () =>
    loadPkcs12(pkcs12Leaf.pkcs12, 'wrong-pkcs12-password'),
  )
  run.secret('wrong PKCS#12 password', 'wrong-pkcs12-password')
  sandbox.setHostile('alg-none')
  await run.failure('UDAP hostile discovery (alg none)', () =>
    client('UDAP hostile', {
      privateKey: ecCertificate.privateKeyPem,
      certificateChain: ecCertificate.chainDer,
    }).serverMetadata(trust),
  )
  sandbox.setHostile('revoked-leaf')
  await run.failure('UDAP hostile discovery (revoked leaf)', () =>
    client('UDAP hostile revoked', {
      privateKey: ecCertificate.privateKeyPem,
      certificateChain: ecCertificate.chainDer,
    }).serverMetadata(trust),
  )
  sandbox.setHostile(undefined)
  const slow = client(
    'UDAP time-out',
    {
      privateKey: unregisteredCertificate.privateKeyPem,
      certificateChain: unregisteredCertificate.chainDer,
    },
    { fetch: hangingOn('/token'), timeoutMs: 300 },
  )
  await run.failure('UDAP token time-out', () =>
    slow.requestBackendToken({ clientUri: unregisteredUri, b2b, ...trust }),
  )
  const echo = client(
    'UDAP long echo',
    {
      privateKey: unregisteredCertificate.privateKeyPem,
      certificateChain: unregisteredCertificate.chainDer,
    },
    { fetch: echoingTokenEndpoint(run, 'UDAP long echo', 'client_assertion', 'whole', 513) },
  )
  await run.failure('UDAP long echo (authentication token with x5c)', () =>
    echo.requestBackendToken({ clientUri: unregisteredUri, b2b, ...trust }),
  )
}

/** Secrets seen only on the wire: assertions, software statements, Authorization headers. */
function collectWireSecrets(run: RunRecorder, smart: SmartSandbox, udap: UdapSandbox): void {
  for (const [index, request] of [...smart.requests, ...udap.requests].entries()) {
    run.secret(`client assertion ${index}`, request.form?.client_assertion)
    run.secret(`code ${index}`, request.form?.code)
    run.secret(`code verifier ${index}`, request.form?.code_verifier)
    run.secret(`refresh token sent ${index}`, request.form?.refresh_token)
    const authorization = request.headers.authorization
    if (authorization !== undefined) {
      run.secret(`authorization header ${index}`, authorization)
      run.secret(`authorization credentials ${index}`, authorization.replace(/^\S+\s+/, ''))
    }
    const json = request.json
    if (typeof json === 'object' && json !== null) {
      run.secret(
        `software statement ${index}`,
        (json as Record<string, unknown>).software_statement,
      )
    }
  }
}

function dedupe(secrets: readonly RunSecret[]): RunSecret[] {
  const seen = new Set<string>()
  return secrets.filter((secret) => {
    if (seen.has(secret.value)) return false
    seen.add(secret.value)
    return true
  })
}
