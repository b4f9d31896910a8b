import {
  type CertificateInput,
  ConfigurationError,
  type CrlInput,
  type KeyValueStore,
  safeUrl,
} from '@fhir-auth/core/essentials'
import { raceCallerSignal } from '@fhir-auth/core/internal'
import {
  checkUdapTrustInputs,
  createRevocationCache,
  discoverUdapMetadata,
  type UdapMetadata,
  type UdapRevocationOptions,
  udapDiscoveryUrl,
} from '@fhir-auth/udap'
import type { UdapTrustOptions } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import { trustCacheKey } from './trust-cache-key.js'

/**
 * Validated UDAP metadata per community and trust inputs. Concurrent callers with the same
 * inputs share one request; failures are not kept; an entry is dropped once its validation no
 * longer holds (`signed_metadata` `exp`, or the earliest `notAfter` of its chain), so the next
 * call fetches and validates again.
 *
 * @internal
 */
export class UdapDiscoveryCache {
  readonly #context: ProtocolContext
  readonly #entries = new Map<string, Promise<UdapMetadata>>()
  #latest: UdapMetadata | undefined
  /**
   * Where fetched CRLs, OCSP answers and intermediates are kept when the caller names no
   * `revocation.cache`: this client.
   */
  #revocationCache: KeyValueStore | undefined

  constructor(context: ProtocolContext) {
    this.#context = context
  }

  async metadata(
    input: Partial<UdapTrustOptions> | undefined,
    signal?: AbortSignal,
  ): Promise<UdapMetadata> {
    const { trustedAnchors, crls, revocation, community } = readTrustOptions(input)
    const key = trustCacheKey(community, trustedAnchors, crls, revocation)
    const cached = this.#entries.get(key)
    if (cached !== undefined) {
      const metadata = await raceCallerSignal(() => cached, signal, this.#endpoint(community))
      if (!this.#expired(metadata)) return metadata
      if (this.#entries.get(key) === cached) this.#entries.delete(key)
      return this.metadata(input, signal)
    }
    // The shared request is not tied to any one caller's signal; each caller races its own.
    // A caller whose signal is already aborted starts nothing.
    const start = () => {
      const pending = this.#fetch(trustedAnchors, crls, revocation, community)
      this.#entries.set(key, pending)
      pending.catch(() => {
        if (this.#entries.get(key) === pending) this.#entries.delete(key)
      })
      return pending
    }
    return raceCallerSignal(start, signal, this.#endpoint(community))
  }

  #clientRevocationCache(): KeyValueStore {
    this.#revocationCache ??= createRevocationCache()
    return this.#revocationCache
  }

  #endpoint(community: string | undefined): string {
    const { baseUrl } = this.#context.config
    return baseUrl === undefined ? '(no baseUrl)' : safeUrl(udapDiscoveryUrl(baseUrl, community))
  }

  async #fetch(
    trustedAnchors: readonly CertificateInput[],
    crls: readonly CrlInput[],
    revocation: UdapRevocationOptions | undefined,
    community: string | undefined,
  ): Promise<UdapMetadata> {
    const { config, options } = this.#context
    if (config.baseUrl === undefined) {
      throw new ConfigurationError({
        invalidAttribute: 'baseUrl',
        message: 'baseUrl is required for UDAP discovery',
      })
    }
    const metadata = await discoverUdapMetadata({
      ...this.#context.transport(),
      baseUrl: config.baseUrl,
      community,
      trustedAnchors,
      crls,
      revocation: {
        ...revocation,
        cache: revocation?.cache ?? this.#clientRevocationCache(),
      },
      crypto: await this.#context.cryptoBackend(),
      now: options.now,
      logger: options.logger,
    })
    this.#latest = metadata
    return metadata
  }

  /**
   * The metadata most recently validated on this client, for an operation without trust inputs;
   * `undefined` when none was. It is reused only while its validation holds: until its
   * `signed_metadata` `exp`, and no later than the earliest `notAfter` of the chain it was
   * validated with.
   *
   * @throws ConfigurationError on `trustedAnchors` once that time has passed: the metadata must
   *   be validated again, with the trust inputs.
   * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
   */
  reusable(): UdapMetadata | undefined {
    const latest = this.#latest
    if (latest === undefined || !this.#expired(latest)) return latest
    throw new ConfigurationError({
      invalidAttribute: 'trustedAnchors',
      message: `the UDAP metadata this client validated earlier expired at ${latest.validUntil.toISOString()} (its signed_metadata exp, or a certificate of its chain): it must be validated again, pass trustedAnchors (and crls or revocation)`,
    })
  }

  /** The metadata most recently validated on this client, expired or not; `undefined` when none was. */
  get latest(): UdapMetadata | undefined {
    return this.#latest
  }

  #expired(metadata: UdapMetadata): boolean {
    return metadata.validUntil.getTime() <= this.#context.options.now().getTime()
  }
}

/**
 * Reads the trust inputs of a UDAP operation: anchors a required array of certificates, CRLs
 * an optional array of CRLs, `revocation` `{ fetch?, cache? }` (the library has no default trust store: UDAP trust is per community
 * and explicit), checked by `@fhir-auth/udap` before anything is keyed or fetched.
 *
 * @throws ConfigurationError `trustedAnchors`, `crls`, `revocation` or `community`.
 */
export function readTrustOptions(input: Partial<UdapTrustOptions> | undefined): {
  trustedAnchors: readonly CertificateInput[]
  crls: readonly CrlInput[]
  revocation: UdapRevocationOptions | undefined
  community: string | undefined
} {
  const { trustedAnchors, crls = [], revocation } = checkUdapTrustInputs(input ?? {})
  const community = input?.community
  if (community !== undefined && community !== null && typeof community !== 'string') {
    throw new ConfigurationError({
      invalidAttribute: 'community',
      invalidValue: community,
      message: 'community must be a URI string',
    })
  }
  return { trustedAnchors, crls, revocation, community: community ?? undefined }
}
