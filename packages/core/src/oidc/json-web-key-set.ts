import type { Jwk } from '../crypto/jwk.js'
import { IdTokenError } from '../errors/id-token-error.js'
import { isJsonObject, parseJsonObjectBody } from '../http/json.js'
import { sendRequest } from '../http/request.js'
import type { TransportOptions } from '../http/transport.js'

/** What a {@link JsonWebKeySet} is given besides its URL and transport. */
export interface JsonWebKeySetOptions {
  /** The clock the refetch cooldown is measured on (the client's `now`); default the system's. */
  readonly now?: (() => Date) | undefined
}

/** A key set is refetched for an unknown `kid` at most once per this many milliseconds. */
const refetchCooldownMs = 30_000

/**
 * An authorization server's signing keys (`jwks_uri`), fetched through the HTTP policy on first
 * use and kept. A token whose `kid` is not in the kept set makes a refetch (keys rotate), at most
 * one per 30 s: a flood of tokens with made-up `kid`s costs the server one request per 30 s, not
 * one each. The first fetch is not a refetch, so a rotation right after it is still picked up.
 * Concurrent lookups share one fetch, the first and a refetch alike; a failed fetch is not kept.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RotateSigKeys OIDC Core §10.1.1 (rotation)
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-5 RFC 7517 §5 (JWK Set)
 */
export class JsonWebKeySet {
  readonly #jwksUri: string
  readonly #transport: () => TransportOptions
  readonly #now: () => Date
  #keys: Promise<readonly Jwk[]> | undefined
  /** The refetch in flight, which concurrent lookups of unknown `kid`s join. */
  #refetching: Promise<readonly Jwk[]> | undefined
  /** When the last refetch started (ms on {@link JsonWebKeySetOptions.now}'s clock). */
  #lastRefetchAt: number | undefined

  /** @param transport the client's transport settings, read at each fetch. */
  constructor(jwksUri: string, transport: () => TransportOptions, options?: JsonWebKeySetOptions) {
    this.#jwksUri = jwksUri
    this.#transport = transport
    this.#now = options?.now ?? (() => new Date())
  }

  /**
   * The keys that could have signed a token with this header `kid` (all signing keys when the
   * token names none).
   *
   * @throws IdTokenError `jwks` when the set cannot be fetched or has no key for the `kid`.
   */
  async candidates(kid: string | undefined): Promise<readonly Jwk[]> {
    const first = matching(await this.#load(), kid)
    if (first.length > 0) return first
    // Without a kid there is nothing a rotation could add.
    if (kid === undefined) throw noKey(kid, this.#jwksUri)
    // In the cooldown the kept keys are read again: a refetch that ended meanwhile may have them.
    const latest = matching(await (this.#refetch() ?? this.#load()), kid)
    if (latest.length === 0) throw noKey(kid, this.#jwksUri)
    return latest
  }

  #load(): Promise<readonly Jwk[]> {
    this.#keys ??= this.#start()
    return this.#keys
  }

  /** The refetch in flight, else a new one; `undefined` within 30 s of the last one's start. */
  #refetch(): Promise<readonly Jwk[]> | undefined {
    if (this.#refetching !== undefined) return this.#refetching
    const now = this.#now().getTime()
    if (this.#lastRefetchAt !== undefined && now - this.#lastRefetchAt < refetchCooldownMs) {
      return undefined
    }
    this.#lastRefetchAt = now
    const refetching = this.#start()
    this.#keys = refetching
    this.#refetching = refetching
    const done = () => {
      if (this.#refetching === refetching) this.#refetching = undefined
    }
    refetching.then(done, done)
    return refetching
  }

  /** A fetch whose keys are kept once they arrive; a failure is forgotten. */
  #start(): Promise<readonly Jwk[]> {
    const loading = this.#fetch()
    loading.catch(() => {
      if (this.#keys === loading) this.#keys = undefined
    })
    return loading
  }

  async #fetch(): Promise<readonly Jwk[]> {
    let body: Record<string, unknown>
    try {
      const response = await sendRequest({
        ...this.#transport(),
        method: 'GET',
        url: this.#jwksUri,
      })
      if (response.status !== 200) {
        throw new IdTokenError(
          'jwks',
          `the key set at ${this.#jwksUri} answered HTTP ${response.status}`,
        )
      }
      body = parseJsonObjectBody(response)
    } catch (error) {
      if (error instanceof IdTokenError) throw error
      throw new IdTokenError('jwks', `the key set at ${this.#jwksUri} could not be fetched`, {
        cause: error,
      })
    }
    if (!Array.isArray(body.keys)) {
      throw new IdTokenError('jwks', `the key set at ${this.#jwksUri} has no "keys" array`)
    }
    return body.keys.filter(isJsonObject) as Jwk[]
  }
}

/** Signing keys with this `kid` (any signing key when there is no `kid`). */
function matching(keys: readonly Jwk[], kid: string | undefined): Jwk[] {
  return keys.filter(
    (key) =>
      (kid === undefined || key.kid === kid) &&
      (key.use === undefined || key.use === 'sig') &&
      (!Array.isArray(key.key_ops) || key.key_ops.includes('verify')),
  )
}

function noKey(kid: string | undefined, jwksUri: string): IdTokenError {
  const which =
    kid === undefined ? 'signing key' : `key with kid ${JSON.stringify(kid.slice(0, 64))}`
  return new IdTokenError('jwks', `the key set at ${jwksUri} has no ${which}`)
}
