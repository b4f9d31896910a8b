import { type CryptoBackend, IdTokenError, type TransportOptions } from '@fhir-auth/core/essentials'
import { abortedByCaller, raceSignal } from '@fhir-auth/core/internal'
import {
  type IdTokenClaims,
  idTokenAlgorithms,
  JsonWebKeySet,
  verifyIdToken,
} from '@fhir-auth/core/oidc'
import type { ProtocolContext } from '../protocol-context.js'
import type { ProtocolImplementation } from '../protocol-implementation.js'
import { openIdConfiguration } from './openid-configuration.js'
import type { OpenIdProvider, OpenIdProviderHint } from './openid-provider.js'

/** What a validation needs from its client. */
export interface IdTokenValidatorDependencies {
  readonly clientId: () => string
  /** What the protocol's discovery says of the provider. */
  readonly hint: (signal: AbortSignal | undefined) => Promise<OpenIdProviderHint>
  /** The issuer to ask when discovery names none: the configured `issuer`. */
  readonly fallbackIssuer: () => string | undefined
  readonly crypto: () => Promise<CryptoBackend>
  readonly transport: (signal?: AbortSignal) => TransportOptions
  readonly now: () => Date
  /**
   * What an `IdTokenError` `jwks` or `iss` adds to its message: how to name the right issuer
   * when discovery cannot (UDAP metadata names no OpenID issuer).
   */
  readonly issuerAdvice?: string | undefined
}

/** What one validation checks besides the provider's rules. */
export interface IdTokenCheck {
  readonly nonce?: string | undefined
  /** The `sub` of the ID token a refreshed one replaces. */
  readonly subject?: string | undefined
  readonly maxAgeSeconds?: number | undefined
  readonly signal?: AbortSignal | undefined
}

/**
 * ID token validation for one client: the provider from discovery (an issuer bound to the
 * server, ADR 0013; completed from its `openid-configuration` when discovery names no issuer or
 * key set), one key set per `jwks_uri` kept for the client's life (refetched for an unknown
 * `kid` at most once per 30 s on the client's clock), signatures through the client's crypto
 * backend. Loaded with the OIDC code on the first validation (the `Client` imports it on
 * demand): apps that never ask for `openid` never download either.
 *
 * @internal
 */
export class IdTokenValidator {
  readonly #dependencies: IdTokenValidatorDependencies
  readonly #keySets = new Map<string, JsonWebKeySet>()
  #provider: OpenIdProvider | undefined

  constructor(dependencies: IdTokenValidatorDependencies) {
    this.#dependencies = dependencies
  }

  /**
   * The caller's signal ends its wait (an `IdTokenError` `jwks` caused by the abort); a key set
   * fetch other validations share goes on under the client's time limit.
   *
   * @throws IdTokenError with the reason of the first rule broken.
   */
  validate(idToken: unknown, check: IdTokenCheck): Promise<IdTokenClaims> {
    return raceSignal(
      () => this.#validate(idToken, check).catch((error: unknown) => this.#advised(error)),
      check.signal,
      () =>
        new IdTokenError('jwks', 'the ID token check was aborted by the caller', {
          cause: abortedByCaller('jwks_uri'),
        }),
    )
  }

  async #validate(idToken: unknown, check: IdTokenCheck): Promise<IdTokenClaims> {
    const [provider, crypto] = await Promise.all([
      this.#resolveProvider(check.signal),
      this.#dependencies.crypto(),
    ])
    let keys = this.#keySets.get(provider.jwksUri)
    if (keys === undefined) {
      keys = new JsonWebKeySet(provider.jwksUri, () => this.#dependencies.transport(), {
        now: () => this.#dependencies.now(),
      })
      this.#keySets.set(provider.jwksUri, keys)
    }
    return verifyIdToken(idToken, {
      issuer: provider.issuer,
      clientId: this.#dependencies.clientId(),
      algorithms: provider.algorithms,
      keys,
      crypto,
      now: this.#dependencies.now(),
      nonce: check.nonce,
      subject: check.subject,
      maxAgeSeconds: check.maxAgeSeconds,
    })
  }

  /** An issuer or key set failure with the protocol's advice on the issuer, else as it was. */
  #advised(error: unknown): never {
    const advice = this.#dependencies.issuerAdvice
    if (
      advice !== undefined &&
      error instanceof IdTokenError &&
      (error.reason === 'jwks' || error.reason === 'iss')
    ) {
      throw new IdTokenError(error.reason, `${error.message}. ${advice}`, { cause: error.cause })
    }
    throw error
  }

  async #resolveProvider(signal: AbortSignal | undefined): Promise<OpenIdProvider> {
    if (this.#provider !== undefined) return this.#provider
    const hint = await this.#dependencies.hint(signal)
    if (hint.issuer !== undefined && hint.jwksUri !== undefined) {
      this.#provider = {
        issuer: hint.issuer,
        jwksUri: hint.jwksUri,
        algorithms: idTokenAlgorithms(hint.algorithms),
      }
      return this.#provider
    }
    const issuer = hint.issuer ?? this.#dependencies.fallbackIssuer()
    if (issuer === undefined) {
      throw new IdTokenError('jwks', 'no issuer is known to find the ID token signing keys of')
    }
    this.#provider = await openIdConfiguration(issuer, this.#dependencies.transport(signal))
    return this.#provider
  }
}

/**
 * The validator of a `Client`: its client id (configured or registered), its protocol's
 * discovery, its crypto backend, transport and clock. Made here, in the chunk that loads with the
 * first ID token, rather than by the `Client`, so that apps that never validate one do not carry
 * the wiring either.
 *
 * @internal
 */
export function clientIdTokenValidator(
  context: ProtocolContext,
  implementation: () => Promise<ProtocolImplementation>,
): IdTokenValidator {
  return new IdTokenValidator({
    clientId: () => context.clientId() ?? '',
    hint: (signal) => implementation().then((made) => made.openIdProvider(signal)),
    fallbackIssuer: () => context.config.issuer,
    crypto: () => context.cryptoBackend(),
    transport: (signal) => context.transport(signal),
    now: () => context.options.now(),
    issuerAdvice: context.flow === null ? undefined : udapIssuerAdvice,
  })
}

/** UDAP metadata names no OpenID issuer: only the configuration can (UDAP guide, "OpenID"). */
const udapIssuerAdvice =
  "UDAP metadata names no OpenID issuer: ID tokens are checked against the configured issuer, else baseUrl. Configure `issuer` with the authorization server's OpenID issuer (the `iss` of its ID tokens)"
