import { randomBytes } from 'node:crypto'
import type { IssuedAccessToken, UdapGrantType } from './options.js'
import type { UdapSandboxUser } from './sandbox-user.js'

/**
 * What a user authorized for a client (one authorization code and every token issued from it,
 * refreshes included). Revoking it revokes all of them.
 */
export interface UserGrant {
  readonly id: string
  readonly clientId: string
  readonly scopes: readonly string[]
  readonly user: UdapSandboxUser
  /** Whether refresh tokens are issued for it. */
  readonly refreshable: boolean
}

/** An access token to issue. */
export interface AccessTokenInput {
  readonly clientId: string
  readonly unregistered: boolean
  readonly scope: string
  readonly b2b?: Readonly<Record<string, unknown>>
  readonly grantType: UdapGrantType
  readonly grant?: UserGrant
  readonly lifetimeSeconds: number
}

/** The outcome of {@link TokenStore.presentRefreshToken}. */
export type RefreshTokenUse =
  /** A current refresh token; `rotate()` retires it once the refresh succeeds. */
  | { readonly status: 'valid'; readonly grant: UserGrant; readonly rotate: () => void }
  /** A refresh token that was already rotated: its grant is revoked now (RFC 9700 §4.14.2). */
  | { readonly status: 'reused' }
  | { readonly status: 'unknown' }
  | { readonly status: 'other-client' }

interface StoredAccessToken {
  readonly token: Omit<IssuedAccessToken, 'revoked'>
  readonly grantId: string | undefined
}

interface StoredRefreshToken {
  readonly grantId: string
  active: boolean
}

/**
 * The tokens and user grants of one sandbox: access tokens (for the resource endpoint and
 * `sandbox.accessTokens`), rotating refresh tokens, and revocation by grant.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.4
 */
export class TokenStore {
  readonly #now: () => Date
  readonly #accessTokens: StoredAccessToken[] = []
  readonly #accessTokensByValue = new Map<string, StoredAccessToken>()
  readonly #refreshTokens = new Map<string, StoredRefreshToken>()
  readonly #grants = new Map<string, UserGrant>()
  readonly #revokedGrants = new Set<string>()

  constructor(now: () => Date) {
    this.#now = now
  }

  /** Records a new user grant. */
  createGrant(grant: Omit<UserGrant, 'id'>): UserGrant {
    const stored: UserGrant = { ...grant, id: randomToken() }
    this.#grants.set(stored.id, stored)
    return stored
  }

  /** Revokes a grant and every token issued under it. */
  revokeGrant(grantId: string): void {
    this.#revokedGrants.add(grantId)
  }

  /** Issues an access token. */
  issueAccessToken(input: AccessTokenInput): string {
    const accessToken = randomToken()
    const stored: StoredAccessToken = {
      token: {
        accessToken,
        clientId: input.clientId,
        unregistered: input.unregistered,
        scope: input.scope,
        ...(input.b2b === undefined ? {} : { b2b: input.b2b }),
        expiresAt: new Date(this.#now().getTime() + input.lifetimeSeconds * 1000),
        grantType: input.grantType,
        ...(input.grant === undefined ? {} : { subject: input.grant.user.sub }),
      },
      grantId: input.grant?.id,
    }
    this.#accessTokens.push(stored)
    this.#accessTokensByValue.set(accessToken, stored)
    return accessToken
  }

  /** Issues a refresh token for `grant`. */
  issueRefreshToken(grant: UserGrant): string {
    const refreshToken = randomToken()
    this.#refreshTokens.set(refreshToken, { grantId: grant.id, active: true })
    return refreshToken
  }

  /**
   * Presents a refresh token for `clientId`: a current one comes back with its grant (and a
   * `rotate` to retire it); an already rotated one revokes its grant at once.
   */
  presentRefreshToken(refreshToken: string, clientId: string): RefreshTokenUse {
    const stored = this.#refreshTokens.get(refreshToken)
    const grant = stored === undefined ? undefined : this.#grants.get(stored.grantId)
    if (stored === undefined || grant === undefined || this.#revokedGrants.has(grant.id)) {
      return { status: 'unknown' }
    }
    if (grant.clientId !== clientId) return { status: 'other-client' }
    if (!stored.active) {
      this.revokeGrant(grant.id)
      return { status: 'reused' }
    }
    return {
      status: 'valid',
      grant,
      rotate: () => {
        stored.active = false
      },
    }
  }

  /** The access token with this value, when it is current (issued here, unexpired, unrevoked). */
  activeAccessToken(accessToken: string): IssuedAccessToken | undefined {
    const stored = this.#accessTokensByValue.get(accessToken)
    if (stored === undefined) return undefined
    const token = this.#snapshot(stored)
    return token.revoked || token.expiresAt <= this.#now() ? undefined : token
  }

  /** Every access token issued, oldest first. */
  snapshot(): IssuedAccessToken[] {
    return this.#accessTokens.map((stored) => this.#snapshot(stored))
  }

  #snapshot(stored: StoredAccessToken): IssuedAccessToken {
    return {
      ...stored.token,
      revoked: stored.grantId !== undefined && this.#revokedGrants.has(stored.grantId),
    }
  }
}

function randomToken(): string {
  return randomBytes(32).toString('base64url')
}
