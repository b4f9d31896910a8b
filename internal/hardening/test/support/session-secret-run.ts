/**
 * One run of DESIGN §8's flows through `Client` against the SMART sandbox, collecting what the
 * secrets scan of `session-secrets.test.ts` needs: launches kept in a store and with kept values
 * (GET and POST; public and symmetric clients), sessions that fetch, refresh (on expiry, on a
 * 401, on demand), persist through `onTokens` and resume from `serialize()`, and
 * `validateIdToken` — and the failures of the new error classes: `AuthorizationError` (denied,
 * replayed, another issuer, an error that quotes the code), `IdTokenError` (nonce, HS256 keyed
 * with the client secret, a bad signature, `alg: none`), `StoreError` (a store and an
 * `onTokens` whose errors quote the secrets they were given, a store that never answers),
 * `TokenError` (a revoked grant, an expired session), `HttpError` (a transport that fails
 * quoting the Authorization header) and `ConfigurationError` (a URL outside the base).
 */
import {
  Client,
  type ClientConfigInput,
  type ClientOptions,
  type FetchLike,
  type KeyValueStore,
  memoryStore,
  type Session,
  TokenSet,
} from '@fhir-auth/client'
import { type SmartSandbox, sandboxDefaultRedirectUri, startSmartSandbox } from '@fhir-auth/sandbox'
import { type CapturingLogger, createCapturingLogger } from '@fhir-auth/test-utils'
import type { RunSecret } from './secret-run.js'

/** Everything the run produced. */
export interface SessionSecretRun {
  readonly sandbox: SmartSandbox
  readonly logger: CapturingLogger
  readonly secrets: readonly RunSecret[]
  /** Every expected failure, by name. */
  readonly errors: ReadonlyMap<string, unknown>
  /** Every public object of the run (clients, sessions, token sets, stores), by name. */
  readonly objects: ReadonlyMap<string, unknown>
  readonly completed: readonly string[]
}

const scopes = ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access']

class Recorder {
  readonly logger = createCapturingLogger()
  readonly secrets: RunSecret[] = []
  readonly errors = new Map<string, unknown>()
  readonly objects = new Map<string, unknown>()
  readonly completed: string[] = []

  secret(label: string, value: unknown): void {
    if (typeof value === 'string' && value.length >= 8) this.secrets.push({ label, value })
  }

  /** Keeps a session's tokens as secrets and the session and its tokens as printed objects. */
  session(label: string, session: Session): Session {
    const { tokens } = session
    this.secret(`${label} access token`, tokens.accessToken)
    this.secret(`${label} refresh token`, tokens.refreshToken)
    this.secret(`${label} ID token`, tokens.idToken)
    this.secret(`${label} serialized tokens`, tokens.serialize())
    this.objects.set(`session ${label}`, session)
    this.objects.set(`tokens ${label}`, tokens)
    return session
  }

  async failure(name: string, operation: () => Promise<unknown>): Promise<void> {
    try {
      await operation()
      this.errors.set(name, new Error(`expected failure "${name}" succeeded`))
    } catch (error) {
      this.errors.set(name, error)
    }
  }
}

/** Starts the sandbox and runs every flow once. The caller closes the sandbox. */
export async function runSessionFlows(): Promise<SessionSecretRun> {
  const run = new Recorder()
  const clientSecret = `session-secret-${crypto.randomUUID()}`
  const sandbox = await startSmartSandbox({
    clients: [
      { client_id: 's-public', token_endpoint_auth_method: 'none' },
      {
        client_id: 's-symmetric',
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret: clientSecret,
      },
    ],
  })
  run.secret('symmetric client secret', clientSecret)
  const config = (clientId: string, extra: Partial<ClientConfigInput> = {}): ClientConfigInput => ({
    baseUrl: sandbox.fhirBaseUrl,
    allowInsecureLocalhost: true,
    clientId,
    redirectUri: sandboxDefaultRedirectUri,
    scopes,
    ...extra,
  })
  const client = (name: string, clientId: string, options: ClientOptions = {}) => {
    const made = new Client(config(clientId, clientId === 's-symmetric' ? { clientSecret } : {}), {
      logger: run.logger,
      clientType: clientId === 's-symmetric' ? 'confidential_symmetric' : 'public',
      ...options,
    })
    run.objects.set(`client ${name}`, made)
    return made
  }
  /** Begins, plays the user through the sandbox, and returns the callback URL. */
  const callbackOf = async (app: Client, store?: KeyValueStore, method: 'get' | 'post' = 'get') => {
    const begun = await app.beginAuthorization({ store, method })
    run.secret('a kept code verifier', begun.codeVerifier)
    const result = await sandbox.authorize(
      begun.params === undefined
        ? { url: begun.authUrl }
        : { endpoint: begun.authUrl, params: begun.params },
    )
    const callbackUrl = result.redirectUrl?.href ?? ''
    run.secret('a code', result.code)
    return { begun, callbackUrl }
  }
  const signIn = async (label: string, app: Client, onTokens?: (s: string) => void) => {
    const store = memoryStore()
    run.objects.set(`store ${label}`, store)
    const { callbackUrl } = await callbackOf(app, store)
    const session = await app.completeAuthorization(callbackUrl, {
      store,
      onTokens: (tokens) => onTokens?.(tokens.serialize()),
    })
    return run.session(label, session)
  }

  // Launches with a store and with kept values; the session's life.
  const publicApp = client('public', 's-public')
  const symmetricApp = client('symmetric', 's-symmetric')
  const persisted: string[] = []
  const session = await signIn('symmetric store', symmetricApp, (saved) => persisted.push(saved))
  await session.fetch('Patient/patient-1')
  run.session('symmetric store refreshed', session)
  await session.refresh()
  for (const saved of persisted) run.secret('persisted tokens', saved)
  run.session('symmetric store after refresh', session)
  // Resumed in another process: another Client for the same server and client (a session
  // serialized for one client is refused by any other).
  const resumedApp = client('symmetric', 's-symmetric')
  const resumed = run.session('resumed', resumedApp.resumeSession(session.tokens.serialize()))
  await resumed.fetch('Patient/patient-1')
  run.completed.push('store launch, fetch, refresh, resume')

  const kept = await callbackOf(publicApp, undefined, 'post')
  const keptSession = run.session(
    'kept values',
    await publicApp.completeAuthorization(kept.callbackUrl, {
      state: kept.begun.state,
      codeVerifier: kept.begun.codeVerifier,
      nonce: kept.begun.nonce,
    }),
  )
  run.objects.set(
    'ID token claims',
    await publicApp.validateIdToken(keptSession.tokens.idToken as string),
  )
  run.completed.push('kept values launch, validateIdToken')

  // A dead access token: a 401, one refresh, the retry.
  const dead = publicApp.resumeSession({
    access_token: 'dead-access-token-Qw8Er7Ty6',
    refresh_token: keptSession.tokens.refreshToken as string,
    expires_in: 3600,
    scope: keptSession.tokens.scopes.join(' '),
  })
  run.secret('dead access token', 'dead-access-token-Qw8Er7Ty6')
  await dead.fetch('Patient/patient-1')
  run.session('401 refreshed', dead)
  run.completed.push('401, refresh, retry')

  await authorizationFailures(run, sandbox, publicApp, callbackOf)
  await idTokenFailures(run, sandbox, symmetricApp, publicApp, callbackOf)
  await storeFailures(run, publicApp, callbackOf, signIn)
  await sessionFailures(run, sandbox, publicApp, signIn, client)

  for (const [index, request] of sandbox.requests.entries()) {
    run.secret(`code ${index}`, request.form?.code)
    run.secret(`code verifier ${index}`, request.form?.code_verifier)
    run.secret(`refresh token sent ${index}`, request.form?.refresh_token)
    const authorization = request.headers.authorization
    if (authorization !== undefined) run.secret(`authorization header ${index}`, authorization)
  }
  const seen = new Set<string>()
  return {
    sandbox,
    logger: run.logger,
    secrets: run.secrets.filter((secret) => !seen.has(secret.value) && seen.add(secret.value)),
    errors: run.errors,
    objects: run.objects,
    completed: run.completed,
  }
}

type CallbackOf = (
  app: Client,
  store?: KeyValueStore,
  method?: 'get' | 'post',
) => Promise<{ begun: { state: string; codeVerifier?: string }; callbackUrl: string }>

async function authorizationFailures(
  run: Recorder,
  sandbox: SmartSandbox,
  app: Client,
  callbackOf: CallbackOf,
): Promise<void> {
  const store = memoryStore()
  const denied = await app.beginAuthorization({ store })
  const refused = await sandbox.authorize({ url: denied.authUrl }, { decision: 'deny' })
  await run.failure('AuthorizationError access_denied', () =>
    app.completeAuthorization(refused.redirectUrl?.href ?? '', { store }),
  )
  const { callbackUrl } = await callbackOf(app, store)
  await app.completeAuthorization(callbackUrl, { store })
  await run.failure('AuthorizationError replayed callback', () =>
    app.completeAuthorization(callbackUrl, { store }),
  )
  const other = new URL((await callbackOf(app, store)).callbackUrl)
  other.searchParams.set('iss', 'https://evil.hardening.test')
  await run.failure('AuthorizationError another issuer', () =>
    app.completeAuthorization(other, { store }),
  )
  const quoting = new URL((await callbackOf(app, store)).callbackUrl)
  const code = quoting.searchParams.get('code') ?? ''
  quoting.searchParams.set('error', 'server_error')
  quoting.searchParams.set('error_description', `${'x'.repeat(500)}${code} could not be used`)
  await run.failure('AuthorizationError quoting the code', () =>
    app.completeAuthorization(quoting, { store }),
  )
}

async function idTokenFailures(
  run: Recorder,
  sandbox: SmartSandbox,
  symmetricApp: Client,
  publicApp: Client,
  callbackOf: CallbackOf,
): Promise<void> {
  for (const [variant, app] of [
    ['wrong-nonce', publicApp],
    ['hs256-client-secret', symmetricApp],
    ['bad-signature', publicApp],
    ['alg-none', publicApp],
  ] as const) {
    const store = memoryStore()
    const { callbackUrl } = await callbackOf(app, store)
    sandbox.setIdTokenVariant(variant)
    await run.failure(`IdTokenError ${variant}`, () =>
      app.completeAuthorization(callbackUrl, { store }),
    )
    sandbox.setIdTokenVariant(undefined)
  }
  // The tokens of those responses were received too: none may show.
  for (const [index, request] of sandbox.requests.entries()) {
    run.secret(`exchanged code ${index}`, request.form?.code)
  }
}

async function storeFailures(
  run: Recorder,
  app: Client,
  callbackOf: CallbackOf,
  signIn: (label: string, app: Client, onTokens?: (saved: string) => void) => Promise<Session>,
): Promise<void> {
  const quotingStore: KeyValueStore = {
    ...memoryStore(),
    set: async (_key, value) => {
      throw new Error(`cannot keep ${value}`)
    },
  }
  await run.failure('StoreError set quoting the record', () =>
    app.beginAuthorization({ store: quotingStore }),
  )
  const inner = memoryStore()
  const hanging: KeyValueStore = { ...inner, take: () => new Promise(() => {}) }
  const { callbackUrl } = await callbackOf(app, hanging)
  const quick = new Client(app.config, { logger: run.logger, timeoutMs: 50 })
  await run.failure('StoreError take that never answers', () =>
    quick.completeAuthorization(callbackUrl, { store: hanging }),
  )
  const session = await signIn('onTokens quoting', app, (saved) => {
    throw new Error(`cannot save ${saved}`)
  })
  await run.failure('StoreError onTokens quoting the tokens', () => session.refresh())
  run.session('onTokens quoting after refresh', session)
}

async function sessionFailures(
  run: Recorder,
  sandbox: SmartSandbox,
  app: Client,
  signIn: (label: string, app: Client) => Promise<Session>,
  client: (name: string, clientId: string, options?: ClientOptions) => Client,
): Promise<void> {
  const revoked = await signIn('revoked', app)
  await fetch(sandbox.endpoints.revocation, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      token: revoked.tokens.refreshToken as string,
      token_type_hint: 'refresh_token',
      client_id: 's-public',
    }),
  })
  await run.failure('TokenError revoked refresh token', () => revoked.refresh())

  // Tokens obtained an hour ago, valid for a minute, with no refresh token.
  const saved = TokenSet.fromResponse(
    { access_token: 'expired-access-token-Lk7Jh6', expires_in: 60 },
    { obtainedAt: new Date(Date.now() - 3_600_000) },
  ).serialize()
  const expired = client('expired', 's-public').resumeSession(saved)
  run.secret('expired access token', 'expired-access-token-Lk7Jh6')
  await run.failure('TokenError expired without refresh token', () => expired.accessToken())

  const quotingTransport: FetchLike = async (url, init) => {
    if (new URL(url).pathname.startsWith('/fhir/Patient')) {
      throw new TypeError(`fetch failed: ${new Headers(init.headers).get('authorization')}`)
    }
    return globalThis.fetch(url, init)
  }
  const failing = await signIn(
    'transport',
    client('quoting transport', 's-public', { fetch: quotingTransport }),
  )
  await run.failure('HttpError transport quoting the header', () =>
    failing.fetch('Patient/patient-1'),
  )
  await run.failure('ConfigurationError outside the base URL', () =>
    failing.fetch(`${sandbox.origin}/token`),
  )
}
