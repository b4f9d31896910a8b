/**
 * A fake SMART server for the DESIGN §8 probe, reached through the client's `fetch` option (the
 * one fake fetch, which routes by URL): SMART and OpenID discovery, a key set, a token endpoint
 * that answers the code exchange and every refresh, and a FHIR server. It records every request,
 * so a test can say what was sent and what was not.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html
 * @see ../../../../../../docs/testing.md (one fake fetch)
 */
import { type CapturedRequest, fakeRoutes } from '@fhir-auth/test-utils/fake-fetch'
import { jwt, rsaJwk } from './signing-keys.js'

export const BASE = 'https://fhir.example.org/r4'
export const ISSUER = 'https://auth.example.org'
export const AUTHORIZE = `${ISSUER}/authorize`
export const TOKEN = `${ISSUER}/token`
export const JWKS = `${ISSUER}/jwks`
export const OPENID_CONFIGURATION = `${ISSUER}/.well-known/openid-configuration`
export const SMART_CONFIGURATION = `${BASE}/.well-known/smart-configuration`
/**
 * The authorization server's own openid-configuration: it names the SMART configuration's
 * endpoints, which binds the issuer to this server (ADR 0013).
 */
export const OPENID_PROVIDER = {
  issuer: ISSUER,
  authorization_endpoint: AUTHORIZE,
  token_endpoint: TOKEN,
  jwks_uri: JWKS,
}
export const REDIRECT = 'https://app.example.org/callback'
export const CLIENT_ID = 'probe-app'
export const SCOPES = ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access']
export const PATIENT = `${BASE}/Patient/1`

/** A JSON response. */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })

/**
 * The redirect back to the app: {@link REDIRECT} with these query parameters, in this order. A
 * parameter given as `undefined` is left out.
 */
export function callbackUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) query.append(name, value)
  }
  return `${REDIRECT}?${query}`
}

/**
 * A FHIR server answer that refuses the launch's first access token (`at-1`) with a 401 and
 * gives `accepted()` to any other: the situation a session's refresh-and-retry is for.
 */
export const refusingFirstAccessToken =
  (accepted: () => Response) =>
  (request: CapturedRequest): Response =>
    request.headers.get('authorization') === 'Bearer at-1'
      ? new Response('', { status: 401 })
      : accepted()

/** A movable clock (the real time plus an offset), injected as the client's `now`. */
function movableClock() {
  let offsetMs = 0
  return {
    now: () => new Date(Date.now() + offsetMs),
    seconds: () => Math.floor((Date.now() + offsetMs) / 1000),
    advance(seconds: number) {
      offsetMs += seconds * 1000
    },
  }
}

type TokenAnswer = Record<string, unknown> | Response

export interface FakeServerOptions {
  readonly discovery?: (document: Record<string, unknown>) => Record<string, unknown>
  /** The answer to an authorization_code request; default {@link FakeServer.codeResponse}. */
  readonly codeAnswer?: (server: FakeServer, request: CapturedRequest) => TokenAnswer
  /** The answer to the n-th refresh (1-based); default: rotated tokens. */
  readonly refreshAnswer?: (server: FakeServer, n: number, request: CapturedRequest) => TokenAnswer
  /** The answer of the FHIR server; default 200 `{ resourceType: 'Patient' }`. */
  readonly resource?: (request: CapturedRequest, n: number) => Response
  readonly jwks?: () => unknown
  readonly openidConfiguration?: () => Record<string, unknown>
  /** Extra resource URLs to route (besides {@link PATIENT}). */
  readonly resourceUrls?: readonly string[]
}

export interface FakeServer {
  readonly fetch: ReturnType<typeof fakeRoutes>['fetch']
  readonly requests: readonly CapturedRequest[]
  count(url: string): number
  tokenRequests(): CapturedRequest[]
  resourceRequests(): CapturedRequest[]
  /** The nonce of the last authorization URL the server was shown ({@link FakeServer.authorize}). */
  nonce: string | undefined
  readonly clock: ReturnType<typeof movableClock>
  /**
   * Shows the server the authorization URL a user agent would open: it keeps the URL's nonce
   * for the ID tokens it signs from then on. Returns the URL, parsed.
   */
  authorize(authUrl: string): URL
  idClaims(overrides?: Record<string, unknown>): Record<string, unknown>
  idToken(overrides?: Record<string, unknown>, header?: Record<string, unknown>): string
  codeResponse(extra?: Record<string, unknown>): Record<string, unknown>
}

export function fakeServer(options: FakeServerOptions = {}): FakeServer {
  const clock = movableClock()
  let refreshes = 0
  let resources = 0
  const document: Record<string, unknown> = {
    issuer: ISSUER,
    jwks_uri: JWKS,
    authorization_endpoint: AUTHORIZE,
    token_endpoint: TOKEN,
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    capabilities: [
      'launch-standalone',
      'client-public',
      'sso-openid-connect',
      'permission-offline',
    ],
    id_token_signing_alg_values_supported: ['RS256'],
  }
  const answer = (value: TokenAnswer) => (value instanceof Response ? value : json(value))
  const server: FakeServer = {
    fetch: undefined as never,
    requests: [],
    count: () => 0,
    tokenRequests: () => [],
    resourceRequests: () => [],
    nonce: undefined,
    clock,
    authorize: (authUrl) => {
      const url = new URL(authUrl)
      server.nonce = url.searchParams.get('nonce') ?? undefined
      return url
    },
    idClaims: (overrides = {}) => {
      const now = clock.seconds()
      return {
        iss: ISSUER,
        sub: 'user-1',
        aud: CLIENT_ID,
        iat: now,
        exp: now + 300,
        ...(server.nonce === undefined ? {} : { nonce: server.nonce }),
        fhirUser: `${BASE}/Practitioner/p1`,
        ...overrides,
      }
    },
    idToken: (overrides = {}, header = { alg: 'RS256', kid: 'k1', typ: 'JWT' }) =>
      jwt(header, server.idClaims(overrides)),
    codeResponse: (extra = {}) => ({
      access_token: 'at-1',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: SCOPES.join(' '),
      refresh_token: 'rt-1',
      id_token: server.idToken(),
      patient: '1',
      ...extra,
    }),
  }
  const resourceRoute = (request: CapturedRequest) => {
    resources += 1
    return options.resource?.(request, resources) ?? json({ resourceType: 'Patient', id: '1' })
  }
  const routes = fakeRoutes({
    [SMART_CONFIGURATION]: () => json(options.discovery?.({ ...document }) ?? document),
    [OPENID_CONFIGURATION]: () => json(options.openidConfiguration?.() ?? OPENID_PROVIDER),
    [JWKS]: () => json(options.jwks?.() ?? { keys: [rsaJwk] }),
    [TOKEN]: (request) => {
      const form = new URLSearchParams(request.bodyText)
      if (form.get('grant_type') === 'refresh_token') {
        refreshes += 1
        const n = refreshes
        return answer(
          options.refreshAnswer?.(server, n, request) ?? {
            access_token: `at-r${n}`,
            token_type: 'Bearer',
            expires_in: 3600,
            refresh_token: `rt-r${n}`,
          },
        )
      }
      return answer(options.codeAnswer?.(server, request) ?? server.codeResponse())
    },
    [PATIENT]: resourceRoute,
    ...Object.fromEntries((options.resourceUrls ?? []).map((url) => [url, resourceRoute])),
  })
  return Object.assign(server, {
    fetch: routes.fetch,
    requests: routes.requests,
    count: routes.count,
    tokenRequests: () => routes.requests.filter((request) => request.url === TOKEN),
    resourceRequests: () =>
      routes.requests.filter(
        (request) => request.url.startsWith(BASE) && request.url !== SMART_CONFIGURATION,
      ),
  })
}
