/**
 * The child process of `abort-safety.test.ts`, run with Node's default settings (an unhandled
 * rejection ends the process with exit code 1). It drives every `Client` operation that takes
 * a `signal` — SMART and UDAP, against both sandboxes, and the sessions of DESIGN §8
 * (`session-abort-operations.ts`) — with a signal aborted before the call,
 * aborted as the 1st, 2nd or 3rd request starts, and aborted after a few milliseconds, while
 * the server answers normally, slowly (with a `fetch` that ignores the signal), or fails
 * discovery with a 503 after the caller has gone. Each case must settle with a value or a
 * `FhirAuthError`; a pre-aborted case must reject without sending anything. It prints one line
 * `abort-run <JSON summary>` and exits 0; the parent test fails on any other ending.
 *
 * `--control` skips the run and leaves one rejection unhandled on purpose: the parent checks
 * that this ends the process, so a passing run proves something.
 */
import {
  Client,
  type ClientConfigInput,
  type ClientOptions,
  type FetchLike,
  FhirAuthError,
  silentLogger,
} from '@fhir-auth/client'
import {
  generateClientKeys,
  type SmartSandbox,
  sandboxDefaultRedirectUri,
  startSmartSandbox,
  startUdapSandbox,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import { testPki } from '@fhir-auth/test-pki'
import type { AbortOperation } from './abort-operation.js'
import { sessionOperations } from './session-abort-operations.js'

/** How the server side behaves in one case. */
const serverModes = ['healthy', 'slow', 'discovery fails late'] as const
type ServerMode = (typeof serverModes)[number]

/** When the caller's signal aborts. */
type AbortMode =
  | { readonly kind: 'never' }
  | { readonly kind: 'pre-aborted' }
  | { readonly kind: 'at request'; readonly request: number }
  | { readonly kind: 'after'; readonly ms: number }

const abortModes: readonly AbortMode[] = [
  { kind: 'never' },
  { kind: 'pre-aborted' },
  { kind: 'at request', request: 1 },
  { kind: 'at request', request: 2 },
  { kind: 'at request', request: 3 },
  { kind: 'after', ms: 0 },
  { kind: 'after', ms: 3 },
  { kind: 'after', ms: 15 },
  { kind: 'after', ms: 40 },
]

/** One operation of `Client`, on a client built for the case. */
type Operation = AbortOperation

/** What the summary reports. */
interface Summary {
  cases: number
  fulfilled: number
  rejected: number
  preAbortedRequests: number
  /** Requests sent per operation over all its cases: every operation reaches the servers. */
  requests: Record<string, number>
  operations: string[]
  violations: string[]
}

const slowMs = 25
const settleWithinMs = 20_000

if (process.argv.includes('--control')) {
  // Deliberately unobserved: under default settings Node must end the process for this.
  void Promise.reject(new Error('control: an unhandled rejection'))
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  console.log('abort-run control survived')
} else {
  const summary = await runEverything()
  console.log(`abort-run ${JSON.stringify(summary)}`)
}

async function runEverything(): Promise<Summary> {
  const keys = await generateClientKeys('ES384')
  const secret = `abort-secret-${crypto.randomUUID()}`
  const [smart, udap] = await Promise.all([
    startSmartSandbox({
      clients: [
        { client_id: 'abort-public', token_endpoint_auth_method: 'none' },
        {
          client_id: 'abort-symmetric',
          token_endpoint_auth_method: 'client_secret_basic',
          client_secret: secret,
        },
        {
          client_id: 'abort-es384',
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [keys.publicJwk] },
        },
      ],
      requestLogLimit: 0,
    }),
    startUdapSandbox({
      allowUnregisteredClients: true,
      clientTrust: {
        anchors: testPki.trustAnchors.map((anchor) => anchor.pem),
        crls: testPki.currentCrls.map((crl) => crl.pem),
      },
      requestLogLimit: 0,
    }),
  ])
  try {
    const operations = [
      ...smartOperations(smart, keys, secret),
      ...(await udapOperations(udap)),
      ...sessionOperations(smart),
    ]
    const summary: Summary = {
      cases: 0,
      fulfilled: 0,
      rejected: 0,
      preAbortedRequests: 0,
      requests: {},
      operations: operations.map((operation) => `${operation.protocol} ${operation.name}`),
      violations: [],
    }
    for (const operation of operations) {
      for (const server of serverModes) {
        // The cases of one operation and server mode run side by side: more interleavings.
        await Promise.all([
          ...abortModes.map((abort) => runCase(operation, server, abort, summary)),
          runSharedCase(operation, server, summary),
        ])
      }
    }
    // Discovery failing late (after its callers left) must not surface either: wait for it.
    await new Promise((resolve) => setTimeout(resolve, 4 * slowMs))
    return summary
  } finally {
    await Promise.all([smart.close(), udap.close()])
  }
}

function smartOperations(
  sandbox: SmartSandbox,
  keys: Awaited<ReturnType<typeof generateClientKeys>>,
  secret: string,
): Operation[] {
  const config = (clientId: string, extra: Partial<ClientConfigInput> = {}): ClientConfigInput => ({
    baseUrl: sandbox.fhirBaseUrl,
    allowInsecureLocalhost: true,
    clientId,
    redirectUri: sandboxDefaultRedirectUri,
    scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access'],
    ...extra,
  })
  const asymmetric = config('abort-es384', { privateKey: keys.privateKeyPem, kid: keys.kid })
  const code = { code: 'a-code-nobody-issued', codeVerifier: 'v'.repeat(43) }
  const smart = (
    name: string,
    clientConfig: ClientConfigInput,
    clientType: ClientOptions['clientType'],
    call: Operation['call'],
  ): Operation => ({
    name,
    protocol: 'smart',
    config: clientConfig,
    options: { clientType },
    // Codes and refresh tokens nobody issued: the server refuses them, as it should.
    unaborted: /requestAccessToken|refreshToken/.test(name) ? 'ERR_TOKEN' : 'fulfilled',
    call,
  })
  return [
    smart('serverMetadata', config('abort-public'), 'public', (client, signal) =>
      client.serverMetadata({ signal }),
    ),
    smart('authorizationUrl (GET)', config('abort-public'), 'public', (client, signal) =>
      client.authorizationUrl({ signal }),
    ),
    smart('authorizationUrl (POST)', config('abort-public'), 'public', (client, signal) =>
      client.authorizationUrl({ method: 'post', signal }),
    ),
    smart('requestAccessToken (public)', config('abort-public'), 'public', (client, signal) =>
      client.requestAccessToken({ ...code, signal }),
    ),
    smart(
      'requestAccessToken (symmetric)',
      config('abort-symmetric', { clientSecret: secret }),
      'confidential_symmetric',
      (client, signal) => client.requestAccessToken({ ...code, signal }),
    ),
    smart(
      'requestAccessToken (asymmetric)',
      asymmetric,
      'confidential_asymmetric',
      (client, signal) => client.requestAccessToken({ ...code, signal }),
    ),
    smart('refreshToken', config('abort-public'), 'public', (client, signal) =>
      client.refreshToken({ refreshToken: 'a-refresh-token-nobody-issued', signal }),
    ),
    smart('requestBackendToken', asymmetric, 'confidential_asymmetric', (client, signal) =>
      client.requestBackendToken({ scopes: ['system/Patient.rs'], signal }),
    ),
    smart('registerClient', config('abort-public'), 'public', (client, signal) =>
      client.registerClient(
        { client_name: 'abort case', redirect_uris: [sandboxDefaultRedirectUri] },
        { authorization: `Bearer ${sandbox.initialAccessToken}`, signal },
      ),
    ),
  ]
}

async function udapOperations(sandbox: UdapSandbox): Promise<Operation[]> {
  const clientUri = 'https://client.hardening.test/abort'
  const certificate = await sandbox.certificateAuthority.issue({
    commonName: 'Abort client',
    sanUris: [clientUri],
    keyType: 'p256',
  })
  const trust = {
    trustedAnchors: sandbox.trust.anchors.map((anchor) => anchor.pem),
    crls: sandbox.trust.crls.map((crl) => crl.pem),
  }
  const b2b = {
    organizationId: 'https://org.hardening.test/organizations/abort',
    purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
  }
  const registration = {
    client_name: 'Abort client',
    contacts: ['mailto:ops@hardening.test'],
    grant_types: ['client_credentials'],
    scope: 'system/*.rs',
  }
  const udap = (name: string, call: Operation['call']): Operation => ({
    name,
    protocol: 'udap',
    config: {
      baseUrl: sandbox.fhirBaseUrl,
      allowInsecureLocalhost: true,
      scopes: ['system/*.rs'],
      privateKey: certificate.privateKeyPem,
      certificateChain: certificate.chainDer,
    },
    options: { protocol: 'udap' },
    unaborted: 'fulfilled',
    call,
  })
  return [
    udap('serverMetadata', (client, signal) => client.serverMetadata({ ...trust, signal })),
    udap('registerClient', (client, signal) =>
      client.registerClient(registration, { clientUri, ...trust, signal }),
    ),
    udap('requestBackendToken', (client, signal) =>
      client.requestBackendToken({ clientUri, b2b, ...trust, signal }),
    ),
    udap('cancelRegistration', (client, signal) =>
      client.cancelRegistration(
        {
          client_name: 'Abort client',
          contacts: ['mailto:ops@hardening.test'],
          scope: 'system/*.rs',
        },
        { clientUri, ...trust, signal },
      ),
    ),
  ]
}

/** A `fetch` for one case: counts requests, may abort as one starts, may answer slowly or fail discovery. */
function caseFetch(server: ServerMode, onRequest: (count: number) => void) {
  let count = 0
  const fetch: FetchLike = async (url, init) => {
    count += 1
    onRequest(count)
    const discovery = new URL(url).pathname.includes('/.well-known/')
    // This delay ignores the signal on purpose: the library must give up on its own.
    if (server === 'slow' || (server === 'discovery fails late' && discovery)) await delay(slowMs)
    if (server === 'discovery fails late' && discovery) {
      return new Response('temporarily unavailable', { status: 503 })
    }
    return globalThis.fetch(url, init)
  }
  return { fetch, requests: () => count }
}

function newClient(operation: Operation, fetch: FetchLike): Client {
  return new Client(operation.config, {
    ...operation.options,
    fetch,
    logger: silentLogger,
    timeoutMs: 5_000,
  })
}

async function runCase(
  operation: Operation,
  server: ServerMode,
  abort: AbortMode,
  summary: Summary,
): Promise<void> {
  const label = `${operation.protocol} ${operation.name}, ${server}, ${describeAbort(abort)}`
  const controller = new AbortController()
  const wire = caseFetch(server, (count) => {
    if (abort.kind === 'at request' && count === abort.request) controller.abort()
  })
  const client = newClient(operation, wire.fetch)
  const signal = abort.kind === 'pre-aborted' ? AbortSignal.abort() : controller.signal
  const timer = abort.kind === 'after' ? setTimeout(() => controller.abort(), abort.ms) : undefined
  const outcome = await settle(() => operation.call(client, signal))
  clearTimeout(timer)
  record(summary, label, outcome)
  countRequests(summary, operation, wire.requests())
  if (abort.kind === 'never' && server === 'healthy') {
    const ended = outcome.kind === 'rejected' ? errorCode(outcome.error) : outcome.kind
    if (ended !== operation.unaborted) {
      summary.violations.push(
        `${label}: ended ${ended}${outcome.kind === 'rejected' ? ` (${String(outcome.error)})` : ''}, expected ${operation.unaborted}`,
      )
    }
  }
  if (abort.kind === 'pre-aborted') {
    summary.preAbortedRequests += wire.requests()
    if (wire.requests() > 0) summary.violations.push(`${label}: sent ${wire.requests()} request(s)`)
    if (outcome.kind !== 'rejected') summary.violations.push(`${label}: did not reject`)
  }
}

/** Two callers of one client at once: the first aborts as the first request starts, the second does not. */
async function runSharedCase(
  operation: Operation,
  server: ServerMode,
  summary: Summary,
): Promise<void> {
  const label = `${operation.protocol} ${operation.name}, ${server}, shared by an aborting caller`
  const controller = new AbortController()
  const wire = caseFetch(server, (count) => {
    if (count === 1) controller.abort()
  })
  const client = newClient(operation, wire.fetch)
  const [aborting, patient] = await Promise.all([
    settle(() => operation.call(client, controller.signal)),
    settle(() => operation.call(client, undefined)),
  ])
  record(summary, `${label} (aborting caller)`, aborting)
  record(summary, `${label} (patient caller)`, patient)
  countRequests(summary, operation, wire.requests())
  // One caller's abort is its own: the request it shared goes on for the other.
  if (patient.kind === 'rejected' && abortedByCaller(patient.error)) {
    summary.violations.push(`${label}: the caller without a signal was aborted too`)
  }
}

function countRequests(summary: Summary, operation: Operation, requests: number): void {
  const name = `${operation.protocol} ${operation.name}`
  summary.requests[name] = (summary.requests[name] ?? 0) + requests
}

/** True when the error, or one in its cause chain, is a transport abort. */
function abortedByCaller(error: unknown): boolean {
  for (let link = error, depth = 0; link instanceof Error && depth < 8; depth++) {
    if ((link as { reason?: unknown }).reason === 'aborted') return true
    link = link.cause
  }
  return false
}

type Outcome =
  | { readonly kind: 'fulfilled' }
  | { readonly kind: 'rejected'; readonly error: unknown }
  | { readonly kind: 'hung' }

/** Runs a call, catching a synchronous throw as well, and gives up after {@link settleWithinMs}. */
async function settle(call: () => Promise<unknown>): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const hung = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'hung' }), settleWithinMs)
  })
  const settled = (async (): Promise<Outcome> => {
    try {
      await call()
      return { kind: 'fulfilled' }
    } catch (error) {
      return { kind: 'rejected', error }
    }
  })()
  try {
    return await Promise.race([settled, hung])
  } finally {
    clearTimeout(timer)
  }
}

function record(summary: Summary, label: string, outcome: Outcome): void {
  summary.cases += 1
  if (outcome.kind === 'fulfilled') summary.fulfilled += 1
  else if (outcome.kind === 'hung') summary.violations.push(`${label}: still pending`)
  else {
    summary.rejected += 1
    if (!FhirAuthError.isFhirAuthError(outcome.error)) {
      const error = outcome.error
      summary.violations.push(
        `${label}: rejected with ${error instanceof Error ? `${error.name}: ${error.message}` : typeof error}`,
      )
    }
  }
}

function errorCode(error: unknown): string {
  return FhirAuthError.isFhirAuthError(error) ? error.code : 'a foreign error'
}

function describeAbort(abort: AbortMode): string {
  switch (abort.kind) {
    case 'never':
      return 'never aborted'
    case 'pre-aborted':
      return 'signal aborted before the call'
    case 'at request':
      return `aborted as request ${abort.request} starts`
    case 'after':
      return `aborted after ${abort.ms} ms`
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
