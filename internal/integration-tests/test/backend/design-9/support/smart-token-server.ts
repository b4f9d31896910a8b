/**
 * A fake SMART server (discovery + token endpoint) on `fakeRoutes` that counts token requests
 * exactly and lets a test hold answers back, for the DESIGN §9 acceptance suite.
 */
import { Client, type ClientOptions } from '@fhir-auth/client'
import { testPki } from '@fhir-auth/test-pki'
import { type CapturedRequest, fakeRoutes, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'

export const fhirBase = 'https://fhir.example.test/r4'
export const tokenUrl = 'https://auth.example.test/token'
export const discoveryUrl = `${fhirBase}/.well-known/smart-configuration`
export const rsaLeaf = testPki.leaves['rsa-client']

/** A settable clock. */
export interface TestClock {
  (): Date
  advance(seconds: number): void
}

export function testClock(start = new Date('2030-01-01T00:00:00Z')): TestClock {
  let current = start.getTime()
  return Object.assign(() => new Date(current), {
    advance: (seconds: number) => {
      current += seconds * 1000
    },
  })
}

export interface TokenAnswer {
  /** `expires_in`, or `undefined` to leave it out. */
  readonly expiresIn?: number | string | undefined
  readonly status?: number
}

export interface SmartServer {
  readonly fetch: ClientOptions['fetch']
  /** Token requests received so far. */
  tokenRequests(): number
  /** Token requests' form bodies. */
  readonly tokenForms: URLSearchParams[]
  /** Requests to the FHIR API (anything under fhirBase but discovery). */
  readonly apiRequests: CapturedRequest[]
  /** Sets what the next token answers look like. */
  answer: TokenAnswer
  /** While set, token answers wait for `release()`. */
  hold(): void
  release(): void
  /** API answers: 401 for the listed tokens, else 200 `{ ok: true }`. */
  readonly rejectedTokens: Set<string>
}

export interface SmartServerOptions {
  /** The token endpoint discovery names (default {@link tokenUrl}). */
  readonly tokenEndpoint?: string
  /** Put before every issued token's number (default `token-`). */
  readonly tokenPrefix?: string
}

export function smartServer(
  initial: TokenAnswer = { expiresIn: 300 },
  { tokenEndpoint = tokenUrl, tokenPrefix = 'token-' }: SmartServerOptions = {},
): SmartServer {
  let issued = 0
  let gate: Promise<void> | undefined
  let open: (() => void) | undefined
  const tokenForms: URLSearchParams[] = []
  const apiRequests: CapturedRequest[] = []
  const rejectedTokens = new Set<string>()
  const server = {
    answer: initial,
    hold() {
      gate = new Promise<void>((resolve) => {
        open = resolve
      })
    },
    release() {
      open?.()
      gate = undefined
    },
  }
  const api = (request: CapturedRequest) => {
    apiRequests.push(request)
    const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? ''
    if (rejectedTokens.has(token)) return new Response('no', { status: 401 })
    return jsonResponse({ ok: true, token })
  }
  const routes = fakeRoutes({
    [discoveryUrl]: () =>
      jsonResponse({
        issuer: fhirBase,
        authorization_endpoint: 'https://auth.example.test/authorize',
        token_endpoint: tokenEndpoint,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
        grant_types_supported: ['client_credentials', 'authorization_code'],
        capabilities: ['client-confidential-asymmetric', 'permission-v2'],
        code_challenge_methods_supported: ['S256'],
      }),
    [tokenEndpoint]: async (request) => {
      issued += 1
      const number = issued
      tokenForms.push(new URLSearchParams(request.bodyText))
      const waitFor = gate
      if (waitFor) await waitFor
      const { expiresIn, status = 200 } = server.answer
      if (status !== 200) return jsonResponse({ error: 'invalid_client' }, status)
      const scope = new URLSearchParams(request.bodyText).get('scope') ?? ''
      return jsonResponse({
        access_token: `${tokenPrefix}${number}`,
        token_type: 'Bearer',
        scope,
        ...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
      })
    },
    [`${fhirBase}/Patient`]: api,
    [`${fhirBase}/Patient/1`]: api,
    [`${fhirBase}/metadata`]: api,
  })
  return Object.assign(server, {
    fetch: routes.fetch,
    tokenRequests: () => issued,
    tokenForms,
    apiRequests,
    rejectedTokens,
  })
}

/** A SMART backend-services client (confidential asymmetric, RSA key) on `server`. */
export function smartClient(
  server: Pick<SmartServer, 'fetch'>,
  options: Partial<ClientOptions> = {},
  config: Record<string, unknown> = {},
): Client {
  return new Client(
    {
      baseUrl: fhirBase,
      clientId: 'backend-app',
      scopes: ['system/Patient.rs'],
      privateKey: rsaLeaf.privateKeyPkcs8Pem,
      kid: 'key-1',
      ...config,
    },
    { protocol: 'smart', clientType: 'confidential_asymmetric', fetch: server.fetch, ...options },
  )
}
