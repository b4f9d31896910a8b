import { createHash, randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { TieredLoginStart } from '../authorization-endpoint.js'
import type { ValidAuthorizationRequest } from '../authorization-request.js'
import type { AuthorizationAnswer } from '../client-redirect.js'
import { redirectUrlWith } from '../oauth-redirect.js'
import type { TieredIdentity, TieredLoginRecord, TieredLoginStage } from '../records.js'
import type { UdapSandboxUser } from '../sandbox-user.js'
import { validateIdentityProviderIdToken } from './id-token-validation.js'
import {
  type DataHolderIdentity,
  exchangeIdentityProviderCode,
  registerWithIdentityProvider,
  tieredOAuthScopes,
} from './identity-provider-client.js'
import {
  checkIdentityProvider,
  type IdentityProviderCheckContext,
  type TrustedIdentityProvider,
} from './identity-provider-metadata.js'

/** A login waits this long for the IdP's answer (the user may take a while at a real IdP). */
const pendingLifetimeMs = 10 * 60_000

/** What the data holder's Tiered OAuth needs from the sandbox. */
export interface TieredLoginContext extends IdentityProviderCheckContext {
  readonly identity: DataHolderIdentity
  /** Maps a verified identity to a local user (`undefined`: unknown, `access_denied`). */
  readonly mapUser: (identity: TieredIdentity) => UdapSandboxUser | undefined
  readonly record: (record: TieredLoginRecord) => void
}

/** How the IdP callback ends: an answer to the app, or an error page (no app known). */
export type TieredCallbackResult =
  | {
      readonly kind: 'app'
      readonly request: ValidAuthorizationRequest
      /** The local user for a code; `undefined` with `error`. */
      readonly user: UdapSandboxUser | undefined
      readonly error?: Extract<AuthorizationAnswer, { error: string }>
    }
  | { readonly kind: 'page'; readonly description: string }

interface PendingLogin {
  readonly request: ValidAuthorizationRequest
  readonly identityProvider: TrustedIdentityProvider
  readonly clientId: string
  readonly state: string
  readonly nonce: string
  readonly codeVerifier: string
  readonly startedAt: Date
}

/**
 * The data-holder side of Tiered OAuth (IG STU2 §6; udap.org Tiered OAuth §3–4): checks and
 * trusts the IdP, registers with it once, sends the user there with `openid udap`, its own
 * `state`, a `nonce` and PKCE S256, and on the IdP's callback validates `state`, exchanges
 * the code with a UDAP authentication token, validates the ID token and maps (`iss`, `sub`)
 * to a local user. The browser is bound to its login by an HttpOnly cookie, so a wrong
 * `state` is recognised as such and answered with `server_error` to the app.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/user.html
 * @see https://www.udap.org/udap-user-auth.html
 */
export class TieredLogins {
  /** The cookie carrying the login id; per sandbox, as loopback cookies ignore ports. */
  readonly cookieName = `udap_sandbox_login_${randomBytes(6).toString('hex')}`
  readonly #context: TieredLoginContext
  readonly #pending = new Map<string, PendingLogin>()
  readonly #clients = new Map<string, string>()

  constructor(context: TieredLoginContext) {
    this.#context = context
  }

  /** This data holder's `client_id` at each IdP it registered with. */
  get clients(): ReadonlyMap<string, string> {
    return new Map(this.#clients)
  }

  /** Begins a login at the IdP of `request` (its `identityProvider`). */
  async start(request: ValidAuthorizationRequest): Promise<TieredLoginStart> {
    const idp = request.identityProvider as string
    const startedAt = this.#context.now()
    const fail = (
      stage: TieredLoginStage,
      description: string,
      clientId?: string,
    ): TieredLoginStart => {
      this.#record(request, startedAt, {
        outcome: 'error',
        error: 'invalid_idp',
        errorDescription: description,
        failedStage: stage,
        ...(clientId === undefined ? {} : { identityProviderClientId: clientId }),
      })
      return { kind: 'refused', error: 'invalid_idp', description }
    }
    const checked = await checkIdentityProvider(idp, this.#context)
    if (!checked.trusted) return fail('idp-metadata', checked.description)
    const identityProvider = checked.identityProvider
    let clientId = this.#clients.get(idp)
    if (clientId === undefined) {
      const registered = await registerWithIdentityProvider(
        identityProvider,
        this.#context.identity,
      )
      if (!registered.ok) return fail('idp-registration', registered.description)
      clientId = registered.value
      this.#clients.set(idp, clientId)
    }
    this.#forgetExpired()
    const loginId = randomBytes(32).toString('base64url')
    const pending: PendingLogin = {
      request,
      identityProvider,
      clientId,
      state: randomBytes(32).toString('base64url'),
      nonce: randomBytes(32).toString('base64url'),
      codeVerifier: randomBytes(48).toString('base64url'),
      startedAt,
    }
    this.#pending.set(loginId, pending)
    const location = redirectUrlWith(identityProvider.authorizationEndpoint, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: this.#context.identity.redirectUri,
      scope: tieredOAuthScopes,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: createHash('sha256').update(pending.codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    })
    const path = new URL(this.#context.identity.redirectUri).pathname
    return {
      kind: 'identity-provider',
      location,
      cookie: `${this.cookieName}=${loginId}; Path=${path}; HttpOnly; SameSite=Lax`,
    }
  }

  /**
   * Handles the IdP's redirect back (`GET /idp-callback`): the login of this browser (by
   * cookie) must exist; a `state` other than the one sent → `server_error` (udap.org §4.1); an
   * IdP `error` → `access_denied` (§4.2); then the code exchange and the ID token (failures →
   * `invalid_idp`, IG STU2 §6.2), the mapping (unknown user → `access_denied`, §6.3) and the
   * user's consent (refused → `access_denied`).
   */
  async callback(
    request: IncomingMessage,
    url: URL,
    userDenied: boolean,
  ): Promise<TieredCallbackResult> {
    const loginId = readCookie(request.headers.cookie, this.cookieName)
    const pending = loginId === undefined ? undefined : this.#pending.get(loginId)
    if (loginId === undefined || pending === undefined) {
      return { kind: 'page', description: 'no Tiered OAuth login of this browser is in progress' }
    }
    this.#pending.delete(loginId)
    const query = url.searchParams
    const base = { identityProviderClientId: pending.clientId, nonce: pending.nonce }
    const answer = (
      error: string,
      description: string,
      stage: TieredLoginStage,
      extra: Partial<TieredLoginRecord> = {},
    ): TieredCallbackResult => {
      this.#record(pending.request, pending.startedAt, {
        ...base,
        ...extra,
        outcome: 'error',
        error,
        errorDescription: description,
        failedStage: stage,
      })
      return {
        kind: 'app',
        request: pending.request,
        user: undefined,
        error: { error, error_description: description },
      }
    }
    if (query.get('state') !== pending.state) {
      return answer(
        'server_error',
        'the identity provider returned a wrong or no state',
        'idp-state',
      )
    }
    const idpError = query.get('error')
    if (idpError !== null) {
      // Only an RFC 6749 error code is echoed; anything else the IdP sent stays out.
      const shown = /^[\x20\x21\x23-\x5B\x5D-\x7E]{1,64}$/.test(idpError) ? idpError : 'an error'
      return answer('access_denied', `the identity provider answered ${shown}`, 'idp-error')
    }
    const code = query.get('code')
    if (code === null || code === '') {
      return answer(
        'invalid_idp',
        'the identity provider returned neither code nor error',
        'idp-token',
      )
    }
    const tokens = await exchangeIdentityProviderCode(
      pending.identityProvider,
      this.#context.identity,
      {
        clientId: pending.clientId,
        code,
        codeVerifier: pending.codeVerifier,
      },
    )
    if (!tokens.ok) return answer('invalid_idp', tokens.description, 'idp-token')
    if (tokens.value.idToken === undefined) {
      return answer('invalid_idp', 'the identity provider returned no ID token', 'idp-token')
    }
    const validated = await validateIdentityProviderIdToken(tokens.value.idToken, {
      identityProvider: pending.identityProvider,
      clientId: pending.clientId,
      nonce: pending.nonce,
      now: this.#context.now(),
      toleranceSeconds: this.#context.toleranceSeconds,
    })
    if (!validated.valid) return answer('invalid_idp', validated.description, 'id-token')
    const identity: TieredIdentity = {
      issuer: validated.claims.iss as string,
      subject: validated.claims.sub as string,
      claims: validated.claims,
    }
    const user = this.#context.mapUser(identity)
    if (user === undefined) {
      return answer(
        'access_denied',
        'the identity is not known at this data holder',
        'user-mapping',
        {
          identity,
        },
      )
    }
    if (userDenied) {
      return answer('access_denied', 'the user denied the authorization', 'user-mapping', {
        identity,
        localUser: user,
      })
    }
    this.#record(pending.request, pending.startedAt, {
      ...base,
      outcome: 'code',
      identity,
      localUser: user,
    })
    return { kind: 'app', request: pending.request, user }
  }

  #record(
    request: ValidAuthorizationRequest,
    startedAt: Date,
    outcome: Omit<TieredLoginRecord, 'startedAt' | 'identityProvider' | 'clientId'>,
  ): void {
    this.#context.record({
      startedAt,
      identityProvider: request.identityProvider as string,
      clientId: request.clientId,
      ...outcome,
    })
  }

  #forgetExpired(): void {
    const oldest = this.#context.now().getTime() - pendingLifetimeMs
    for (const [id, pending] of this.#pending) {
      if (pending.startedAt.getTime() < oldest) this.#pending.delete(id)
    }
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const separator = part.indexOf('=')
    if (separator > 0 && part.slice(0, separator).trim() === name) {
      return part.slice(separator + 1).trim()
    }
  }
  return undefined
}
