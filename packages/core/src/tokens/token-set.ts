import { base64UrlDecode } from '../crypto/base64-decode.js'
import type { Logger } from '../logging/logger.js'
import { redacted } from '../logging/redacted.js'
import type { ScopeSet } from '../scopes/scope-set.js'
import { expiresInSeconds } from './expires-in.js'
import type { FhirContextItem } from './fhir-context.js'
import { readScopes } from './scope-reader.js'

/**
 * What a token set is read from: a token response as the server sent it, whatever the JSON
 * types of its members (a `TokenResponse` fits).
 */
export interface TokenResponseInput {
  readonly access_token: string
  readonly [member: string]: unknown
}

/**
 * The server and client a token set is for, recorded by the client that obtained it and kept in
 * {@link TokenSet.serialize}: a client resumes a session only when none of these differs from
 * its own. A member is absent when it was not known.
 */
export interface TokenSetBinding {
  /** The token endpoint the tokens came from (and a refresh goes to). */
  readonly tokenEndpoint?: string | undefined
  /** The issuer the client was configured for (the SMART `aud`; by default the FHIR base URL). */
  readonly issuer?: string | undefined
  /** The FHIR base URL the access token is for. */
  readonly baseUrl?: string | undefined
  /** The client the tokens were issued to. */
  readonly clientId?: string | undefined
}

/** How {@link TokenSet.fromResponse} reads a token response. */
export interface TokenSetSource {
  /** The scopes that were asked for: the granted scopes when the response has no `scope`. */
  readonly requestedScopes?: readonly string[] | undefined
  /** When the request was sent (the client's clock); `expires_in` counts from here. */
  readonly obtainedAt: Date
  /** Claims of an ID token that was validated; `fhirUser` comes from here when absent above. */
  readonly idTokenClaims?: Readonly<Record<string, unknown>> | undefined
  /** Where a member of the wrong JSON type is reported (then left out). */
  readonly logger?: Logger | undefined
  /**
   * The clock {@link TokenSet.isExpired} reads when it is given no `now`: a client passes its
   * injected clock, so a set it made agrees with it. Not serialized; the system clock when absent.
   */
  readonly clock?: (() => Date) | undefined
  /** The server and client the tokens are for; kept through refreshes and serialization. */
  readonly binding?: TokenSetBinding | undefined
}

/** Options of {@link TokenSet.isExpired}. */
export interface ExpiryCheckOptions {
  /** Counts the token as expired this many seconds early; default 0. */
  readonly minValiditySeconds?: number
  readonly now?: Date
}

/**
 * The form {@link TokenSet.serialize} writes. 0.6 added members to the 0.5 form (the binding,
 * and whether the ID token was verified) and stopped writing the claims apart, so the version
 * stays: a string without `binding` is of the 0.5 form.
 */
const serializedVersion = 1

/** What a refresh response leaves as it was when it does not send it (see `withRefresh`). */
const keptThroughRefresh = [
  'refresh_token',
  'id_token',
  'patient',
  'encounter',
  'fhirContext',
  'fhirUser',
  'need_patient_banner',
  'smart_style_url',
  'intent',
  'tenant',
] as const

/**
 * The tokens of one grant, read once from the server's response: typed members with the SMART
 * launch context, when the access token expires, and the granted scopes. Members of the wrong
 * JSON type are left out (with a warning), so a `string | undefined` is always that.
 *
 * `toJSON()` and `util.inspect` hide every token; {@link TokenSet.serialize} is the explicit way
 * to persist one — its output holds the tokens, so keep it where secrets go.
 *
 * @see https://hl7.org/fhir/smart-app-launch/app-launch.html#response-5 SMART 2.2 token response
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 RFC 6749 §5.1
 */
export class TokenSet {
  // The members are declared, not defined: the constructor assigns each once, so a bundle carries
  // no field list for them (target ES2022 would emit one).
  declare readonly accessToken: string
  /** `token_type` as sent; `'Bearer'` when absent. */
  declare readonly tokenType: string
  /** `undefined` when the server gave no `expires_in`. */
  declare readonly expiresAt: Date | undefined
  /**
   * The granted `scope`, else the scopes asked for (after a refresh: those the refresh asked for,
   * else the grant before it): `string[]` as the TokenSet documents it (an array of this set's
   * own, so changing it changes nothing else).
   */
  declare readonly scopes: string[]
  declare readonly refreshToken: string | undefined
  declare readonly idToken: string | undefined
  /** The claims of the ID token after validation. */
  declare readonly idTokenClaims: Readonly<Record<string, unknown>> | undefined
  declare readonly patient: string | undefined
  declare readonly encounter: string | undefined
  declare readonly fhirUser: string | undefined
  declare readonly fhirContext: readonly FhirContextItem[]
  declare readonly needPatientBanner: boolean | undefined
  declare readonly smartStyleUrl: string | undefined
  declare readonly intent: string | undefined
  declare readonly tenant: string | undefined
  /** The response as received. */
  declare readonly raw: Readonly<TokenResponseInput>
  /**
   * The server and client these tokens are for, as the client that obtained them recorded it;
   * `undefined` for a set made without one (or read from a 0.5 serialization).
   */
  declare readonly binding: TokenSetBinding | undefined
  /** When the request was sent, by the client's clock. */
  declare readonly obtainedAt: Date
  readonly #requestedScopes: readonly string[]
  readonly #clock: (() => Date) | undefined
  readonly #logger: Logger | undefined
  #grantedScopes: ScopeSet | undefined

  private constructor(raw: TokenResponseInput, source: TokenSetSource) {
    const warn = (member: string, expected: string) =>
      source.logger?.warn(`Token response member ${member} is not ${expected}; ignoring it`, {
        event: 'tokens.member_type',
        member,
      })
    // A member of this JSON type, else none (and a warning when it was there but of another type).
    const read = <T>(member: string, type: 'string' | 'boolean'): T | undefined => {
      const value = raw[member]
      if (value === undefined || value === null) return undefined
      if (typeof value === type) return value as T
      warn(member, `a ${type}`)
      return undefined
    }
    const text = (member: string) => read<string>(member, 'string')
    this.raw = raw
    this.obtainedAt = new Date(source.obtainedAt.getTime())
    this.#requestedScopes = Object.freeze([...(source.requestedScopes ?? [])])
    this.#clock = source.clock
    this.#logger = source.logger
    this.binding = source.binding
    this.accessToken = raw.access_token
    this.tokenType = text('token_type') ?? 'Bearer'
    this.refreshToken = text('refresh_token')
    this.idToken = text('id_token')
    this.patient = text('patient')
    this.encounter = text('encounter')
    this.smartStyleUrl = text('smart_style_url')
    this.intent = text('intent')
    this.tenant = text('tenant')
    this.idTokenClaims = source.idTokenClaims
    const claimedUser = source.idTokenClaims?.fhirUser
    this.fhirUser = text('fhirUser') ?? (typeof claimedUser === 'string' ? claimedUser : undefined)
    const lifetime = expiresInSeconds(raw.expires_in)
    if (lifetime === undefined && raw.expires_in !== undefined && raw.expires_in !== null)
      warn('expires_in', 'a number of seconds')
    this.expiresAt =
      lifetime === undefined ? undefined : new Date(this.obtainedAt.getTime() + lifetime * 1000)
    const scope = text('scope')
    this.scopes =
      scope === undefined ? [...this.#requestedScopes] : scope.split(' ').filter((s) => s !== '')
    // Epic sends the strings "true" and "false"; the token request already warned about them.
    const banner = raw.need_patient_banner
    this.needPatientBanner =
      banner === 'true' || banner === 'false'
        ? banner === 'true'
        : read<boolean>('need_patient_banner', 'boolean')
    this.fhirContext = readFhirContext(raw.fhirContext, warn)
    Object.freeze(this)
  }

  /** Reads a token response (already checked to have a non-blank `access_token`). */
  static fromResponse(response: TokenResponseInput, source: TokenSetSource): TokenSet {
    return new TokenSet(response, source)
  }

  /**
   * Reads a string made by {@link TokenSet.serialize}; `undefined` when it is not one. The ID
   * token claims are read from the `id_token` it carries (validated when the tokens were
   * obtained), never from a member of their own, so they cannot disagree with the token. A
   * string of the 0.5 form is read without a binding (`binding` is `undefined`), which
   * `client.resumeSession` refuses. `clock` is what {@link TokenSet.isExpired} reads when given
   * no `now` (a clock is not serialized).
   */
  static deserialize(text: string, logger?: Logger, clock?: () => Date): TokenSet | undefined {
    try {
      const value = JSON.parse(text) as Record<string, unknown>
      const raw = value.raw as Record<string, unknown> | undefined
      if (
        value.v !== serializedVersion ||
        typeof value.obtainedAt !== 'number' ||
        typeof raw?.access_token !== 'string' ||
        !Array.isArray(value.requestedScopes)
      )
        return undefined
      return new TokenSet(raw as TokenResponseInput, {
        obtainedAt: new Date(value.obtainedAt),
        requestedScopes: value.requestedScopes.filter((s): s is string => typeof s === 'string'),
        // Only for an ID token that was verified (a 0.5 string, which kept the claims apart,
        // is read without them: `resumeSession` refuses it anyway).
        idTokenClaims: value.idTokenVerified === true ? claimsOf(raw.id_token) : undefined,
        logger,
        clock,
        // A binding that is not an object is none: `resumeSession` refuses the string.
        binding: typeof value.binding === 'object' ? (value.binding ?? undefined) : undefined,
      })
    } catch {
      return undefined
    }
  }

  /**
   * The scopes the grant asked for (its `scope` parameter), which {@link TokenSet.scopes} falls
   * back to: whether an ID token is expected follows from these (OIDC Core §3.1.2.1), since a
   * server may leave `openid` out of the granted `scope`.
   */
  get requestedScopes(): readonly string[] {
    return this.#requestedScopes
  }

  /**
   * {@link TokenSet.scopes} read as SMART scopes (`parseScopes`): what the grant permits,
   * compared by meaning (`ScopeSet.allows`, `ScopeSet.compare`). Parsed on first read; warnings go
   * to the logger of the client that made this set.
   *
   * @throws ConfigurationError on `grantedScopes` only in a browser bundle that left the scope
   *   parser out (import `parseScopes` once to keep it).
   * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html SMART 2.2 scopes
   */
  get grantedScopes(): ScopeSet {
    this.#grantedScopes ??= readScopes(this.scopes, this.#logger)
    return this.#grantedScopes
  }

  /**
   * True when the access token expires within `minValiditySeconds` (default 0) of `now`
   * (default: the clock of the client that made this set, else the system clock). A token
   * without `expires_in` is never known to be expired.
   */
  isExpired(options: ExpiryCheckOptions = {}): boolean {
    if (this.expiresAt === undefined) return false
    const now = (options.now ?? this.#clock?.() ?? new Date()).getTime()
    return this.expiresAt.getTime() - (options.minValiditySeconds ?? 0) * 1000 <= now
  }

  /**
   * A new set after a refresh: the new response's members; the old refresh token when the server
   * sent none (RFC 6749 §6); the old ID token and its claims when no new ID token came; and the
   * launch context of the authorization (`patient`, `encounter`, `fhirContext`, `fhirUser`…),
   * which SMART sends with the code exchange and a refresh response usually leaves out: the
   * session is still about that patient. What the refresh response does send replaces it.
   * Without a `scope` the grant is the one the refresh asked for (`source.requestedScopes`),
   * else the grant before it (RFC 6749 §5.1 and §6), written into {@link TokenSet.raw} so that
   * it survives {@link TokenSet.serialize}.
   *
   * @see https://www.rfc-editor.org/rfc/rfc6749#section-6 RFC 6749 §6
   * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#step-7-app-uses-a-refresh-token-to-obtain-a-new-access-token SMART 2.2 refresh
   */
  withRefresh(response: TokenResponseInput, source: TokenSetSource): TokenSet {
    const carried: Record<string, unknown> = { ...response }
    for (const name of keptThroughRefresh) {
      if (response[name] == null && this.raw[name] != null) carried[name] = this.raw[name]
    }
    // Not the scopes first asked for: a narrower refresh, or a grant narrower than that ask.
    if (response.scope == null) carried.scope = (source.requestedScopes ?? this.scopes).join(' ')
    const keepsIdentity = typeof response.id_token !== 'string'
    return new TokenSet(carried as TokenResponseInput, {
      ...source,
      requestedScopes: source.requestedScopes ?? this.#requestedScopes,
      clock: source.clock ?? this.#clock,
      binding: source.binding ?? this.binding,
      idTokenClaims: source.idTokenClaims ?? (keepsIdentity ? this.idTokenClaims : undefined),
    })
  }

  /**
   * The whole set as a string, tokens included, for an application to persist (encrypted at
   * rest, like any credential) and give back to `client.resumeSession`. It records the binding
   * (token endpoint, issuer, FHIR base URL, client id), so that a client for another server or
   * client refuses it, and whether the carried ID token was verified; the claims themselves are
   * read from that ID token when the string is read back. A set made without a binding (by
   * `TokenSet.fromResponse` alone) records an empty one: the application that made it vouches
   * for it, and any client resumes it.
   */
  serialize(): string {
    return JSON.stringify({
      v: serializedVersion,
      raw: this.raw,
      obtainedAt: this.obtainedAt.getTime(),
      requestedScopes: this.#requestedScopes,
      // Always written, empty for a set made without one: its absence marks the 0.5 form.
      binding: this.binding ?? {},
      idTokenVerified: this.idTokenClaims !== undefined || undefined,
    })
  }

  /** A summary safe to log: no token, no raw response. */
  toJSON(): Record<string, unknown> {
    return {
      accessToken: redacted,
      tokenType: this.tokenType,
      expiresAt: this.expiresAt?.toISOString(),
      scopes: this.scopes,
      refreshToken: this.refreshToken === undefined ? undefined : redacted,
      idToken: this.idToken === undefined ? undefined : redacted,
      patient: this.patient,
      encounter: this.encounter,
      fhirUser: this.fhirUser,
      fhirContext: this.fhirContext.length,
      needPatientBanner: this.needPatientBanner,
      tenant: this.tenant,
    }
  }

  /** Node's `util.inspect` shows the redacted summary. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `TokenSet ${JSON.stringify(this.toJSON())}`
  }
}

/** The payload of a compact JWS, unverified (it was verified when obtained); else none. */
function claimsOf(idToken: unknown): Readonly<Record<string, unknown>> | undefined {
  try {
    const bytes = base64UrlDecode(String(idToken).split('.')[1] ?? '')
    const claims = JSON.parse(new TextDecoder().decode(bytes))
    return typeof claims === 'object' && claims !== null ? claims : undefined
  } catch {
    return undefined
  }
}

function readFhirContext(
  value: unknown,
  warn: (member: string, expected: string) => void,
): readonly FhirContextItem[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) {
    warn('fhirContext', 'an array')
    return []
  }
  const items = value.filter(
    (item): item is FhirContextItem =>
      typeof item === 'object' && item !== null && !Array.isArray(item),
  )
  if (items.length !== value.length) warn('fhirContext', 'an array of objects (some entries)')
  return Object.freeze(items)
}
