import type { Jwk } from '../crypto/jwk.js'
import { IdTokenError } from '../errors/id-token-error.js'
import { isJsonObject, parseJsonObjectBody } from '../http/json.js'
import { sendRequest } from '../http/request.js'
import type { TransportOptions } from '../http/transport.js'

/**
 * An authorization server's signing keys (`jwks_uri`), fetched through the HTTP policy on first
 * use and kept. A token whose `kid` is not in the kept set makes one refetch (keys rotate); a
 * `kid` still missing after that is refused without fetching again until another unknown `kid`
 * comes along. Concurrent lookups share one fetch; a failed fetch is not kept.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RotateSigKeys OIDC Core §10.1.1 (rotation)
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-5 RFC 7517 §5 (JWK Set)
 */
export class JsonWebKeySet {
  readonly #jwksUri: string
  readonly #transport: () => TransportOptions
  #keys: Promise<readonly Jwk[]> | undefined
  /** The `kid` that last caused a refetch and was still missing: not refetched for again. */
  #missingAfterRefetch: string | undefined

  /** @param transport the client's transport settings, read at each fetch. */
  constructor(jwksUri: string, transport: () => TransportOptions) {
    this.#jwksUri = jwksUri
    this.#transport = transport
  }

  /**
   * The keys that could have signed a token with this header `kid` (all signing keys when the
   * token names none).
   *
   * @throws IdTokenError `jwks` when the set cannot be fetched or has no key for the `kid`.
   */
  async candidates(kid: string | undefined): Promise<readonly Jwk[]> {
    const first = matching(await this.#load(false), kid)
    if (first.length > 0) return first
    // Without a kid there is nothing a rotation could add; a kid already refetched for stays missing.
    if (kid === undefined || kid === this.#missingAfterRefetch) throw noKey(kid, this.#jwksUri)
    const refetched = matching(await this.#load(true), kid)
    if (refetched.length === 0) {
      this.#missingAfterRefetch = kid
      throw noKey(kid, this.#jwksUri)
    }
    return refetched
  }

  #load(refresh: boolean): Promise<readonly Jwk[]> {
    if (this.#keys === undefined || refresh) {
      const loading = this.#fetch()
      this.#keys = loading
      loading.catch(() => {
        if (this.#keys === loading) this.#keys = undefined
      })
    }
    return this.#keys
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
    kid === undefined ? 'any signing key' : `a key with kid ${JSON.stringify(kid.slice(0, 64))}`
  return new IdTokenError('jwks', `the key set at ${jwksUri} has no ${which}`)
}
