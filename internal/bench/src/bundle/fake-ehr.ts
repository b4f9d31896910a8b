/**
 * The fake EHR the measured browser apps talk to (through their `fetch` option, relayed from the
 * page to Node): SMART discovery, the authorization endpoint (played by the harness), a token
 * endpoint for the code, refresh and client-credentials grants, a key set, and one FHIR
 * resource. It checks what a real server would before it answers — the PKCE verifier, the client
 * assertion's signature and claims, the Bearer token — so that a measured run is a run in which
 * every flow really succeeded: a flow that silently skipped its signing or its ID token
 * validation would also skip loading that code, and the figure would be too small.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto'
import { importJWK, type JWK, jwtVerify, SignJWT } from 'jose'
import { fakeEhr } from './apps/app-harness.js'

/** A request as the page's `fetch` relayed it. */
export interface RelayedRequest {
  readonly url: string
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** The answer sent back to the page. */
export interface RelayedResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** What one flow's token request carried, for the run's checks. */
export type GrantSeen = 'authorization_code' | 'refresh_token' | 'client_credentials'

const issuer = fakeEhr.baseUrl
const origin = new URL(issuer).origin
const endpoints = {
  authorization: `${origin}/auth/authorize`,
  token: `${origin}/auth/token`,
  jwks: `${origin}/auth/jwks`,
  registration: `${origin}/auth/register`,
}
const idTokenKid = 'fake-ehr-rs256'
const patientUrl = `${issuer}/Patient/123`

interface PendingCode {
  readonly codeChallenge: string
  readonly nonce: string | undefined
  readonly scope: string
}

/**
 * One fake EHR per measured run. `clientKey` is the asymmetric client's public JWK, when the
 * app authenticates with client assertions; without it the client must be public.
 */
export class FakeEhr {
  /** Problems found in the app's requests; a run with any is not measured. */
  readonly problems: string[] = []
  /** Token grants served, in order. */
  readonly grants: GrantSeen[] = []
  /** ID tokens issued. */
  idTokensIssued = 0
  readonly #clientKey: JWK | undefined
  readonly #signingKey = createPrivateKey(
    generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  )
  readonly #codes = new Map<string, PendingCode>()
  readonly #accessTokens = new Set<string>()
  readonly #refreshTokens = new Map<string, string>()
  #counter = 0

  constructor(clientKey?: JWK) {
    this.#clientKey = clientKey
  }

  /**
   * The user agent's visit to the authorization endpoint: the request is read like a server
   * would (client, redirect URI, PKCE S256, state, nonce) and approved at once.
   *
   * @returns the callback URL with `code`, `state` and RFC 9207 `iss`.
   */
  authorize(authorizationUrl: string): string {
    const url = new URL(authorizationUrl)
    const query = url.searchParams
    const expectations: [string, string | null, string][] = [
      ['endpoint', `${url.origin}${url.pathname}`, endpoints.authorization],
      ['response_type', query.get('response_type'), 'code'],
      ['client_id', query.get('client_id'), fakeEhr.clientId],
      ['redirect_uri', query.get('redirect_uri'), fakeEhr.redirectUri],
      ['aud', query.get('aud'), issuer],
      ['code_challenge_method', query.get('code_challenge_method'), 'S256'],
    ]
    for (const [name, actual, expected] of expectations) {
      if (actual !== expected) this.#problem(`authorize: ${name} ${actual} ≠ ${expected}`)
    }
    const code = this.#token('code')
    this.#codes.set(code, {
      codeChallenge: query.get('code_challenge') ?? '',
      nonce: query.get('nonce') ?? undefined,
      scope: query.get('scope') ?? '',
    })
    const callback = new URL(fakeEhr.redirectUri)
    callback.searchParams.set('code', code)
    callback.searchParams.set('state', query.get('state') ?? '')
    callback.searchParams.set('iss', issuer)
    return callback.href
  }

  /** Answers one relayed request. */
  async handle(request: RelayedRequest): Promise<RelayedResponse> {
    const where = `${request.method} ${request.url}`
    if (request.method === 'GET' && request.url === `${issuer}/.well-known/smart-configuration`) {
      return json(200, discoveryDocument)
    }
    if (request.method === 'GET' && request.url === endpoints.jwks) {
      return json(200, { keys: [await this.#publicSigningJwk()] })
    }
    if (request.method === 'POST' && request.url === endpoints.token) {
      return this.#tokenRequest(new URLSearchParams(request.body))
    }
    if (request.method === 'GET' && request.url === patientUrl) {
      const bearer = request.headers.authorization?.replace(/^Bearer /, '')
      if (bearer === undefined || !this.#accessTokens.has(bearer)) {
        this.#problem(`${where}: no valid Bearer token`)
        return json(401, { resourceType: 'OperationOutcome' })
      }
      return json(200, { resourceType: 'Patient', id: '123' })
    }
    this.#problem(`unexpected request ${where}`)
    return json(404, { error: 'not_found' })
  }

  async #tokenRequest(form: URLSearchParams): Promise<RelayedResponse> {
    const grant = form.get('grant_type')
    if (!(await this.#authenticated(form))) return json(401, { error: 'invalid_client' })
    if (grant === 'authorization_code') {
      const pending = this.#codes.get(form.get('code') ?? '')
      this.#codes.delete(form.get('code') ?? '')
      const verifier = form.get('code_verifier') ?? ''
      if (pending === undefined || pending.codeChallenge !== sha256Base64Url(verifier)) {
        this.#problem('token: unknown code or PKCE verifier mismatch')
        return json(400, { error: 'invalid_grant' })
      }
      if (form.get('redirect_uri') !== fakeEhr.redirectUri) {
        this.#problem(`token: redirect_uri ${form.get('redirect_uri')}`)
      }
      this.grants.push('authorization_code')
      const scopes = pending.scope.split(' ')
      const idToken = scopes.includes('openid') ? await this.#idToken(pending.nonce) : undefined
      return json(200, {
        ...this.#accessTokenResponse(pending.scope),
        refresh_token: this.#refreshToken(pending.scope),
        patient: '123',
        ...(idToken === undefined ? {} : { id_token: idToken }),
      })
    }
    if (grant === 'refresh_token') {
      const scope = this.#refreshTokens.get(form.get('refresh_token') ?? '')
      if (scope === undefined) {
        this.#problem('token: unknown refresh token')
        return json(400, { error: 'invalid_grant' })
      }
      this.grants.push('refresh_token')
      return json(200, this.#accessTokenResponse(scope))
    }
    if (grant === 'client_credentials' && this.#clientKey !== undefined) {
      this.grants.push('client_credentials')
      return json(200, this.#accessTokenResponse(form.get('scope') ?? ''))
    }
    this.#problem(`token: grant_type ${grant}`)
    return json(400, { error: 'unsupported_grant_type' })
  }

  /** A public client names itself; an asymmetric one signs an assertion (RFC 7523). */
  async #authenticated(form: URLSearchParams): Promise<boolean> {
    if (this.#clientKey === undefined) {
      if (form.get('client_id') !== fakeEhr.clientId || form.has('client_assertion')) {
        this.#problem('token: a public client must send client_id and no assertion')
        return false
      }
      return true
    }
    if (
      form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
    ) {
      this.#problem('token: no JWT-bearer client assertion')
      return false
    }
    try {
      const { protectedHeader } = await jwtVerify(
        form.get('client_assertion') ?? '',
        await importJWK(this.#clientKey, 'ES384'),
        {
          algorithms: ['ES384'],
          issuer: fakeEhr.clientId,
          subject: fakeEhr.clientId,
          audience: endpoints.token,
          requiredClaims: ['jti', 'exp'],
        },
      )
      if (protectedHeader.kid !== 'bench-es384') throw new Error(`kid ${protectedHeader.kid}`)
      return true
    } catch (error) {
      this.#problem(`token: client assertion refused (${(error as Error).message})`)
      return false
    }
  }

  #accessTokenResponse(scope: string) {
    const accessToken = this.#token('access')
    this.#accessTokens.add(accessToken)
    return { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope }
  }

  #refreshToken(scope: string): string {
    const refreshToken = this.#token('refresh')
    this.#refreshTokens.set(refreshToken, scope)
    return refreshToken
  }

  async #idToken(nonce: string | undefined): Promise<string> {
    this.idTokensIssued += 1
    return new SignJWT({ fhirUser: `${issuer}/Practitioner/1`, ...(nonce ? { nonce } : {}) })
      .setProtectedHeader({ alg: 'RS256', kid: idTokenKid, typ: 'JWT' })
      .setIssuer(issuer)
      .setSubject('user-1')
      .setAudience(fakeEhr.clientId)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(this.#signingKey)
  }

  async #publicSigningJwk(): Promise<JWK> {
    const jwk = createPublicKey(this.#signingKey).export({ format: 'jwk' })
    return { ...jwk, kid: idTokenKid, alg: 'RS256', use: 'sig' } as JWK
  }

  #token(kind: string): string {
    this.#counter += 1
    return `${kind}-${this.#counter}-${createHash('sha256').update(`${kind}${this.#counter}${Math.random()}`).digest('hex').slice(0, 16)}`
  }

  #problem(message: string): void {
    this.problems.push(message)
  }
}

const discoveryDocument = {
  issuer,
  jwks_uri: endpoints.jwks,
  authorization_endpoint: endpoints.authorization,
  token_endpoint: endpoints.token,
  registration_endpoint: endpoints.registration,
  grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
  token_endpoint_auth_methods_supported: ['private_key_jwt', 'none'],
  token_endpoint_auth_signing_alg_values_supported: ['ES384', 'RS384'],
  id_token_signing_alg_values_supported: ['RS256'],
  code_challenge_methods_supported: ['S256'],
  response_types_supported: ['code'],
  authorization_response_iss_parameter_supported: true,
  scopes_supported: ['openid', 'fhirUser', 'launch/patient', 'offline_access', 'patient/*.rs'],
  capabilities: [
    'launch-standalone',
    'client-public',
    'client-confidential-asymmetric',
    'context-standalone-patient',
    'sso-openid-connect',
    'permission-offline',
    'permission-v2',
  ],
}

function json(status: number, body: unknown): RelayedResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
}

function sha256Base64Url(text: string): string {
  return createHash('sha256').update(text).digest('base64url')
}
