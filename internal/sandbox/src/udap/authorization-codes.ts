import { randomBytes } from 'node:crypto'
import type { UdapSandboxUser } from './sandbox-user.js'

/** RFC 6749 §4.1.2 recommends at most 10 minutes; the sandbox keeps codes 5 minutes. */
export const authorizationCodeLifetimeSeconds = 300

/** What an authorization code stands for: an approved authorization request. */
export interface CodeGrant {
  readonly clientId: string
  /** The redirect URI the code was sent to. */
  readonly redirectUri: string
  /** Whether the authorization request named `redirect_uri` (then the token request must). */
  readonly redirectUriSent: boolean
  readonly scopes: readonly string[]
  readonly codeChallenge: string
  readonly nonce: string | undefined
  readonly user: UdapSandboxUser
  /** When the user authenticated (epoch seconds): `auth_time` of ID tokens. */
  readonly authTime: number
}

/** The outcome of {@link AuthorizationCodes.redeem}. */
export type CodeRedemption =
  | {
      readonly status: 'valid'
      readonly grant: CodeGrant
      readonly markIssued: (grantId: string) => void
    }
  | { readonly status: 'unknown' }
  | { readonly status: 'expired' }
  /** Presented before: the tokens issued from it (grant `grantId`) must be revoked. */
  | { readonly status: 'replayed'; readonly grantId: string | undefined }

interface StoredCode {
  readonly grant: CodeGrant
  readonly expiresAtMs: number
  redeemed: boolean
  grantId: string | undefined
}

/**
 * Authorization codes: 256 random bits, single use, {@link authorizationCodeLifetimeSeconds}
 * of validity. A code is spent the first time an authenticated client presents it, whatever
 * the outcome of the remaining checks.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export class AuthorizationCodes {
  readonly #codes = new Map<string, StoredCode>()
  readonly #now: () => Date

  constructor(now: () => Date) {
    this.#now = now
  }

  /** Issues a code for `grant`. */
  issue(grant: CodeGrant): string {
    this.#forgetExpired()
    const code = randomBytes(32).toString('base64url')
    this.#codes.set(code, {
      grant,
      expiresAtMs: this.#now().getTime() + authorizationCodeLifetimeSeconds * 1000,
      redeemed: false,
      grantId: undefined,
    })
    return code
  }

  /** Spends `code`; see {@link CodeRedemption}. */
  redeem(code: string): CodeRedemption {
    const stored = this.#codes.get(code)
    if (stored === undefined) return { status: 'unknown' }
    if (stored.redeemed) return { status: 'replayed', grantId: stored.grantId }
    stored.redeemed = true
    if (stored.expiresAtMs <= this.#now().getTime()) return { status: 'expired' }
    return {
      status: 'valid',
      grant: stored.grant,
      markIssued: (grantId) => {
        stored.grantId = grantId
      },
    }
  }

  #forgetExpired(): void {
    // Redeemed codes are kept while they could still be replayed, so replays stay detectable.
    const now = this.#now().getTime()
    for (const [code, stored] of this.#codes) {
      if (stored.expiresAtMs <= now) this.#codes.delete(code)
    }
  }
}
