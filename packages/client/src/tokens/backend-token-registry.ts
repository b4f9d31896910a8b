import { lazy, lazyImport, wrongType } from '@fhir-auth/core/internal/checks'
import { checkClientCredentialsFlow } from '../flow.js'
import { optionalStore } from '../launch/store-option.js'
import { type BackendTokensOptions, operationOptionNames } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import type { ProtocolImplementation } from '../protocol-implementation.js'
import { optionalSeconds } from '../seconds-option.js'
import { BackendTokens } from './backend-tokens.js'

/** The caches behind every handle, loaded by the first token asked for. */
const backendTokenCaches = lazyImport(() => import('./backend-token-caches.js'))

/**
 * `client.backendTokens`: handles whose options are checked at once and whose caches (the
 * shared-token protocol, the cache ids, the default memory store) load with a handle's first
 * token, once per client.
 *
 * @internal
 */
export class BackendTokenRegistry {
  readonly #context: ProtocolContext
  readonly #implementation: () => Promise<ProtocolImplementation>
  readonly #caches = lazy(() =>
    backendTokenCaches().then(({ BackendTokenCaches }) => new BackendTokenCaches(this.#context)),
  )

  constructor(context: ProtocolContext, implementation: () => Promise<ProtocolImplementation>) {
    this.#context = context
    this.#implementation = implementation
  }

  /**
   * A `backendTokens` handle. Its options are checked now; the token identity (which may need
   * discovery) is worked out on first use.
   *
   * @throws ConfigurationError on `flow` (a UDAP `b2c` or `tiered_oauth` client has no client
   *   credentials), `options`, `store` or `minValiditySeconds`.
   */
  handle(input: BackendTokensOptions | undefined): BackendTokens {
    checkClientCredentialsFlow(this.#context.flow, 'backendTokens')
    const options = this.#context.readOptions(
      input,
      'backendTokens',
      operationOptionNames.backendTokens,
    )
    const store = optionalStore(options.store)
    // `null` is absent, as for every other option (ADR 0008); the default is 60 s.
    const minValiditySeconds =
      optionalSeconds(options.minValiditySeconds ?? undefined, 'minValiditySeconds') ?? 60
    // `signal` is no option here (an unknown option): one caller's signal must not abort the
    // token requests every caller of this entry shares. A caller bounds its own wait with
    // `fetch(input, { signal })`. (The copy has `signal: undefined`, left out here too.)
    const {
      store: _store,
      minValiditySeconds: _min,
      signal: _signal,
      ...request
    } = options as typeof options & { readonly signal?: unknown } & Record<string, unknown>
    // The members of the token's identity are copied now (ADR 0010: one entry per scopes and
    // hl7-b2b context): an app reusing its array or object for its next handle must not change
    // what this one asks for, nor get under this handle's entry a token of another context.
    for (const name of ['scopes', 'b2b', 'b2bUser', 'extensions']) {
      const value = request[name]
      if (typeof value === 'object' && value !== null) {
        try {
          // An array keeps its holes for the request's own checks; the extensions are JSON data.
          request[name] = Array.isArray(value) ? value.slice() : JSON.parse(JSON.stringify(value))
        } catch {
          throw wrongType(name, 'JSON data', value, true)
        }
      }
    }
    // So are the UDAP trust inputs: the handle validates the server's metadata again with them
    // by itself once what it validated expires, perhaps long after the app reused its arrays.
    for (const name of ['trustedAnchors', 'crls']) {
      if (Array.isArray(request[name])) request[name] = request[name].slice()
    }
    return new BackendTokens({
      baseUrl: this.#context.config.baseUrl,
      fetch: this.#context.options.fetch,
      minValiditySeconds,
      cache: lazy(async () => {
        const [caches, implementation] = await Promise.all([this.#caches(), this.#implementation()])
        return caches.entry(implementation, store, request)
      }),
    })
  }
}
