import { ConfigurationError } from '@fhir-auth/core/essentials'
import { describeKind } from '@fhir-auth/core/internal/checks'
import { Client } from '../client.js'
import { checkIss, issuerKey, quoteIss } from './directory-issuer.js'
import type { ClientResolver } from './directory-options.js'

/**
 * The clients of a directory, by FHIR base URL: those listed, then those `resolve` found. A
 * resolution in flight is shared by every caller asking for the same `iss` (one database query
 * for a burst of launches); a client it finds is kept, while `undefined` or a rejection is not,
 * so an EHR registered later is found by the next launch and a failed lookup is retried.
 *
 * @internal
 */
export class DirectoryClients {
  readonly #listed: ReadonlyMap<string, Client>
  /** The listed clients, in the order given. */
  readonly listed: readonly Client[]
  readonly #resolve: ClientResolver | undefined
  readonly #resolved = new Map<string, Client>()
  readonly #resolving = new Map<string, Promise<Client | undefined>>()

  /** @throws ConfigurationError on `clients` or `resolve`. */
  constructor(clients: unknown, resolve: unknown) {
    this.#listed = listedClients(clients)
    this.listed = Object.freeze([...this.#listed.values()])
    if (resolve !== undefined && resolve !== null && typeof resolve !== 'function') {
      throw new ConfigurationError({
        invalidAttribute: 'resolve',
        invalidValue: describeKind(resolve),
        message: 'resolve must be a function (iss) => Client | undefined',
      })
    }
    this.#resolve = (resolve ?? undefined) as ClientResolver | undefined
  }

  /**
   * The client answering to `iss`. Nothing is fetched: an `iss` no listed client answers to
   * goes to `resolve` (when there is one) and nowhere else.
   *
   * @throws ConfigurationError on `iss` when it is not a plain HTTPS URL or no client answers
   *   to it (the message quotes it), on `resolve` when it returns something else than a `Client`
   *   for that base URL; whatever `resolve` throws.
   */
  async find(iss: unknown): Promise<Client> {
    const key = issuerKey(checkIss(iss))
    const client =
      this.#listed.get(key) ?? this.#resolved.get(key) ?? (await this.#resolveOnce(key))
    if (client !== undefined) return client
    throw new ConfigurationError({
      invalidAttribute: 'iss',
      invalidValue: quoteIss(key),
      message: `no client of this directory answers to iss ${quoteIss(key)}: it is not a registered EHR`,
    })
  }

  /** Whether clients not listed may be found by `resolve`. */
  get resolves(): boolean {
    return this.#resolve !== undefined
  }

  /** The client kept for a base URL (listed or resolved earlier), without resolving. */
  known(baseUrl: string): Client | undefined {
    return this.#listed.get(baseUrl) ?? this.#resolved.get(baseUrl)
  }

  async #resolveOnce(key: string): Promise<Client | undefined> {
    const resolve = this.#resolve
    if (resolve === undefined) return undefined
    let pending = this.#resolving.get(key)
    if (pending === undefined) {
      pending = Promise.resolve()
        .then(() => resolve(key))
        .then((client) => resolvedClient(client, key))
      this.#resolving.set(key, pending)
      const settled = () => {
        if (this.#resolving.get(key) === pending) this.#resolving.delete(key)
      }
      pending.then((client) => {
        if (client !== undefined) this.#resolved.set(key, client)
        settled()
      }, settled)
    }
    return pending
  }
}

/**
 * The listed clients by base URL.
 *
 * @throws ConfigurationError on `clients`: not an array, an entry that is not a `Client` or has
 *   no `baseUrl`, two clients with the same `baseUrl` (a launch could not tell them apart).
 */
function listedClients(clients: unknown): ReadonlyMap<string, Client> {
  const listed = new Map<string, Client>()
  if (clients === undefined || clients === null) return listed
  if (!Array.isArray(clients)) {
    throw new ConfigurationError({
      invalidAttribute: 'clients',
      invalidValue: describeKind(clients),
      message: 'clients must be an array of Client',
    })
  }
  for (const client of clients) {
    const baseUrl = baseUrlOf(client, 'clients')
    if (listed.has(baseUrl)) {
      throw new ConfigurationError({
        invalidAttribute: 'clients',
        invalidValue: baseUrl,
        message: `two clients answer to ${baseUrl}: a directory holds one client per FHIR server`,
      })
    }
    listed.set(baseUrl, client)
  }
  return listed
}

/**
 * What `resolve` gave for `key`: `undefined`, or a client answering to that base URL.
 *
 * @throws ConfigurationError on `resolve` for anything else.
 */
function resolvedClient(client: unknown, key: string): Client | undefined {
  if (client === undefined || client === null) return undefined
  if (baseUrlOf(client, 'resolve') === key) return client as Client
  throw new ConfigurationError({
    invalidAttribute: 'resolve',
    invalidValue: quoteIss(key),
    message: `resolve returned a client for another FHIR base URL than iss ${quoteIss(key)}`,
  })
}

/** @throws ConfigurationError on `attribute` when `client` is not a `Client` with a `baseUrl`. */
function baseUrlOf(client: unknown, attribute: string): string {
  const baseUrl = client instanceof Client ? client.config.baseUrl : undefined
  if (baseUrl !== undefined) return baseUrl
  throw new ConfigurationError({
    invalidAttribute: attribute,
    invalidValue: describeKind(client),
    message:
      client instanceof Client
        ? 'a client of a directory needs a baseUrl: it is what an iss is matched against'
        : `${attribute} must give Client instances`,
  })
}
