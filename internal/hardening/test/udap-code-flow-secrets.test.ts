/**
 * The secrets rule (DESIGN §6) for the UDAP authorization code and Tiered OAuth (DESIGN §10):
 * every flow through `Client` against a data holder and its identity provider, with one
 * debug-level capturing logger, then a scan of every log line, every error (message, stack,
 * `cause` chain, JSON, `util.inspect` with hidden members) and every public object (clients,
 * sessions, token sets) for every secret used or received: codes, PKCE verifiers, access,
 * refresh and ID tokens, authentication tokens, software statements and the private keys.
 * Failures include a token endpoint that echoes the whole form (code, verifier, authentication
 * token) in an error longer than the library's cut.
 */
import {
  AuthorizationError,
  Client,
  type ClientConfigInput,
  type FetchLike,
  FhirAuthError,
  IdTokenError,
  memoryStore,
  type Session,
  TokenError,
  type UdapFlow,
} from '@fhir-auth/client'
import {
  type RecordedRequest,
  startTieredOAuthSandboxes,
  type TieredOAuthSandboxes,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import {
  type CapturingLogger,
  compactJwsPattern,
  createCapturingLogger,
  pemPrivateKeyPattern,
  SecretScanner,
} from '@fhir-auth/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const redirectUri = 'https://app.secrets.test/callback'

interface Run {
  readonly logger: CapturingLogger
  readonly secrets: { label: string; value: string }[]
  readonly keys: { label: string; value: string }[]
  readonly errors: Map<string, unknown>
  readonly objects: Map<string, unknown>
}

let sandboxes: TieredOAuthSandboxes
const run: Run = {
  logger: createCapturingLogger(),
  secrets: [],
  keys: [],
  errors: new Map(),
  objects: new Map(),
}

/** A registered authorization-code client of `sandbox`, its key kept for the scan. */
async function registeredClient(
  sandbox: UdapSandbox,
  name: string,
  flow: UdapFlow,
  scopes: readonly string[],
  registeredScope: string,
  grantTypes: readonly string[],
  fetch?: FetchLike,
): Promise<Client> {
  const clientUri = `https://app.secrets.test/${name}`
  const certificate = await sandbox.certificateAuthority.issue({
    commonName: name,
    sanUris: [clientUri],
    keyType: 'p256',
  })
  run.keys.push({ label: `${name} key`, value: certificate.privateKeyPem })
  const config: ClientConfigInput = {
    baseUrl: sandbox.fhirBaseUrl,
    redirectUri,
    scopes: [...scopes],
    privateKey: certificate.privateKeyPem,
    certificateChain: certificate.chainDer,
    allowInsecureLocalhost: true,
  }
  const client = new Client(config, {
    protocol: 'udap',
    flow,
    logger: run.logger,
    ...(fetch === undefined ? {} : { fetch }),
  })
  await client.registerClient(
    {
      client_name: name,
      contacts: ['mailto:ops@secrets.test'],
      grant_types: grantTypes,
      redirect_uris: [redirectUri],
      logo_uri: 'https://app.secrets.test/logo.png',
      scope: registeredScope,
    },
    {
      clientUri,
      trustedAnchors: sandbox.trust.anchors.map((anchor) => anchor.pem),
      crls: sandbox.trust.crls.map((crl) => crl.pem),
    },
  )
  run.objects.set(`${name} client`, client)
  return client
}

/** The user agent's trip; the code in the callback is a secret. */
async function callbackOf(
  sandbox: UdapSandbox,
  request: { readonly authUrl: string; readonly params?: Readonly<Record<string, string>> },
  label: string,
): Promise<string> {
  const result = await sandbox.authorize(
    request.params === undefined
      ? { url: request.authUrl }
      : { endpoint: request.authUrl, params: request.params },
  )
  if (result.code !== undefined) run.secrets.push({ label: `${label} code`, value: result.code })
  return result.redirectUrl?.href ?? ''
}

function keepSession(name: string, session: Session): void {
  run.objects.set(`${name} session`, session)
  run.objects.set(`${name} tokens`, session.tokens)
  keepTokens(name, session.tokens.raw)
}

function keepTokens(name: string, response: Readonly<Record<string, unknown>>): void {
  for (const [member, label] of [
    ['access_token', 'access token'],
    ['refresh_token', 'refresh token'],
    ['id_token', 'ID token'],
  ] as const) {
    const value = response[member]
    if (typeof value === 'string') run.secrets.push({ label: `${name} ${label}`, value })
  }
}

async function expectFailure(name: string, operation: Promise<unknown>): Promise<unknown> {
  const error = await operation.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error, name).toBeInstanceOf(FhirAuthError)
  run.errors.set(name, error)
  return error
}

/** Every client assertion and software statement the servers received. */
function keepSignedRequests(sandbox: UdapSandbox, origin: string): void {
  for (const request of sandbox.requests as readonly RecordedRequest[]) {
    const assertion = request.form?.client_assertion
    if (assertion !== undefined) {
      run.secrets.push({ label: `${origin} authentication token`, value: assertion })
    }
    const verifier = request.form?.code_verifier
    if (verifier !== undefined) run.secrets.push({ label: `${origin} verifier`, value: verifier })
    const statement = (request.json as { software_statement?: unknown } | undefined)
      ?.software_statement
    if (typeof statement === 'string') {
      run.secrets.push({ label: `${origin} software statement`, value: statement })
    }
  }
}

/**
 * A `fetch` whose token endpoint refuses every request with the whole form echoed twice in
 * `error_description` (well past the library's 512-character cut).
 */
const echoingFetch: FetchLike = async (url, init) => {
  if (init.method === 'POST' && url.endsWith('/token')) {
    const form = String(init.body ?? '')
    return new Response(
      JSON.stringify({ error: 'invalid_grant', error_description: `${form} ${form}` }),
      { status: 400, headers: { 'content-type': 'application/json' } },
    )
  }
  return fetch(url, init)
}

beforeAll(async () => {
  sandboxes = await startTieredOAuthSandboxes()
  const { dataHolder, identityProvider } = sandboxes

  // A consumer app: launch kept in a store, session, fetch, refreshes.
  const app = await registeredClient(
    dataHolder,
    'b2c',
    'b2c',
    ['openid', 'fhirUser', 'user/*.rs'],
    'openid fhirUser udap user/*.rs',
    ['authorization_code', 'refresh_token'],
  )
  const store = memoryStore()
  const begun = await app.beginAuthorization({ store })
  const session = await app.completeAuthorization(await callbackOf(dataHolder, begun, 'b2c'), {
    store,
  })
  await session.fetch('Patient/patient-1')
  await session.refresh()
  keepSession('b2c', session)
  const direct = await app.refreshToken({ refreshToken: session.tokens.refreshToken as string })
  keepTokens('b2c direct refresh', direct)

  // The spec's two steps, by POST; then the same code again.
  const kept = await app.authorizationUrl({ method: 'post' })
  run.secrets.push({ label: 'two-step verifier', value: kept.codeVerifier })
  const callback = await callbackOf(dataHolder, kept, 'two-step')
  const code = new URL(callback).searchParams.get('code') as string
  keepTokens('two-step', await app.requestAccessToken({ code, codeVerifier: kept.codeVerifier }))
  await expectFailure(
    'replayed code',
    app.requestAccessToken({ code, codeVerifier: kept.codeVerifier }),
  )
  await expectFailure(
    'rotated refresh token',
    app.refreshToken({ refreshToken: session.tokens.refreshToken as string }),
  )

  // Tiered OAuth: the app, then the refusals on its callback.
  const tiered = await registeredClient(
    dataHolder,
    'tiered',
    'tiered_oauth',
    ['openid', 'user/*.rs'],
    'openid udap user/*.rs',
    ['authorization_code', 'refresh_token'],
  )
  const tieredStore = memoryStore()
  const idp = identityProvider.issuer
  const tieredBegun = await tiered.beginAuthorization({ store: tieredStore, idp })
  keepSession(
    'tiered',
    await tiered.completeAuthorization(await callbackOf(dataHolder, tieredBegun, 'tiered'), {
      store: tieredStore,
    }),
  )
  dataHolder.setHostile('invalid-idp')
  const refusedBegun = await tiered.beginAuthorization({ store: tieredStore, idp })
  await expectFailure(
    'invalid_idp',
    tiered.completeAuthorization(await callbackOf(dataHolder, refusedBegun, 'refused'), {
      store: tieredStore,
    }),
  )
  dataHolder.setHostile('wrong-state')
  const mismatchBegun = await tiered.beginAuthorization({ store: tieredStore, idp })
  await expectFailure(
    'state mismatch',
    tiered.completeAuthorization(await callbackOf(dataHolder, mismatchBegun, 'mismatch'), {
      store: tieredStore,
    }),
  )
  dataHolder.setHostile(undefined)

  // The data holder at its IdP, then an IdP ID token with another nonce.
  const holder = await registeredClient(
    identityProvider,
    'holder',
    'tiered_oauth',
    ['openid', 'udap'],
    'openid udap',
    ['authorization_code'],
  )
  const holderStore = memoryStore()
  const holderBegun = await holder.beginAuthorization({ store: holderStore })
  keepSession(
    'holder',
    await holder.completeAuthorization(await callbackOf(identityProvider, holderBegun, 'holder'), {
      store: holderStore,
    }),
  )
  identityProvider.setHostile('id-token-wrong-nonce')
  const nonceBegun = await holder.beginAuthorization({ store: holderStore })
  await expectFailure(
    'IdP ID token with another nonce',
    holder.completeAuthorization(await callbackOf(identityProvider, nonceBegun, 'nonce'), {
      store: holderStore,
    }),
  )
  identityProvider.setHostile(undefined)

  // A token endpoint echoing the whole form: code, verifier and authentication token.
  const echoed = await registeredClient(
    dataHolder,
    'echo',
    'b2c',
    ['user/*.rs'],
    'user/*.rs',
    ['authorization_code'],
    echoingFetch,
  )
  const echoBegun = await echoed.authorizationUrl()
  run.secrets.push({ label: 'echo verifier', value: echoBegun.codeVerifier })
  const echoCallback = await callbackOf(dataHolder, echoBegun, 'echo')
  await expectFailure(
    'echoed form',
    echoed.completeAuthorization(echoCallback, {
      state: echoBegun.state,
      codeVerifier: echoBegun.codeVerifier,
    }),
  )

  keepSignedRequests(dataHolder, 'data holder')
  keepSignedRequests(identityProvider, 'identity provider')
}, 120_000)

afterAll(() => sandboxes?.close())

function scanner(withShapes: boolean): SecretScanner {
  const scan = new SecretScanner().addPattern('PEM private-key armour', pemPrivateKeyPattern)
  if (withShapes) scan.addPattern('a compact JWS', compactJwsPattern)
  for (const secret of run.secrets) scan.addSecret(secret.label, secret.value)
  for (const key of run.keys) scan.addPrivateKeyPem(key.label, key.value)
  return scan
}

describe('the UDAP code-flow run', () => {
  it('failed where it meant to, with the typed errors', () => {
    expect([...run.errors.keys()]).toEqual([
      'replayed code',
      'rotated refresh token',
      'invalid_idp',
      'state mismatch',
      'IdP ID token with another nonce',
      'echoed form',
    ])
    expect(run.errors.get('replayed code')).toBeInstanceOf(TokenError)
    expect(run.errors.get('invalid_idp')).toMatchObject({ error: 'invalid_idp' })
    expect(run.errors.get('state mismatch')).toBeInstanceOf(AuthorizationError)
    expect(run.errors.get('IdP ID token with another nonce')).toBeInstanceOf(IdTokenError)
    expect(run.errors.get('echoed form')).toMatchObject({
      error: 'invalid_grant',
      errorDescription: expect.stringContaining('[REDACTED]'),
    })
  })

  it('collected secrets of every kind', () => {
    const labels = run.secrets.map((secret) => secret.label).join('\n')
    for (const kind of [
      'access token',
      'refresh token',
      'ID token',
      ' code',
      'verifier',
      'authentication token',
      'software statement',
    ]) {
      expect(labels).toContain(kind)
    }
    expect(run.keys).toHaveLength(4)
  })
})

describe('no UDAP code-flow secret appears', () => {
  it('in any log line, at any level', () => {
    const scan = scanner(true).addLines('log', run.logger.renderedLines())
    expect(scan.textCount).toBeGreaterThan(20)
    expect(scan.findings()).toEqual([])
  })

  it("in any error's message, stack, cause chain, JSON or inspect output", () => {
    const scan = scanner(true)
    for (const [name, error] of run.errors) scan.addError(`error "${name}"`, error)
    expect(scan.findings()).toEqual([])
  })

  it('in JSON.stringify or util.inspect of any client, session or token set', () => {
    const scan = scanner(false)
    for (const [name, value] of run.objects) scan.addValue(name, value)
    expect(scan.textCount).toBeGreaterThan(10)
    expect(scan.findings()).toEqual([])
  })

  it('while the same scan finds a planted token and key line (the scan is not blind)', () => {
    const scan = scanner(true)
    const token = run.secrets.find((secret) => secret.label.endsWith('access token'))?.value
    scan.addText('planted token', `Bearer ${token}`)
    scan.addText('planted key line', `key ${run.keys[0]?.value.split('\n')[2]}`)
    const sources = new Set(scan.findings().map((finding) => finding.source))
    expect(sources).toContain('planted token')
    expect(sources).toContain('planted key line')
  })
})
