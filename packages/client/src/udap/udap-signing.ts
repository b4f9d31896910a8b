import type { JwsSigner } from '@fhir-auth/core/essentials'
import { BoundedCache } from '@fhir-auth/core/jws'
import { prepareUdapSigner } from '@fhir-auth/udap'
import type { ProtocolContext } from '../protocol-context.js'

/** A signing identity checked by `prepareUdapSigner`, kept for reuse until `reuseUntil` (ms). */
interface CheckedIdentity {
  readonly clientUri: string
  readonly signer: JwsSigner
  /** Signers for servers that do not accept `signer.alg`, by their space-joined list. */
  readonly signersByList: Map<string, JwsSigner>
  readonly reuseUntil: number
}

/** How long a checked signing identity is reused before the chain is checked again. */
const signerReuseMs = 60_000

/** Checked identities kept per client URI: a client signs as one or a few. */
const identityCacheSize = 16

/**
 * The signers of one UDAP client (software statements, authentication tokens): its configured key
 * and chain, checked once and reused for a minute, with one signer per algorithm list a server
 * advertises.
 *
 * @internal
 */
export class UdapSigning {
  readonly #context: ProtocolContext
  readonly #identities = new BoundedCache<CheckedIdentity>(identityCacheSize)

  constructor(context: ProtocolContext) {
    this.#context = context
  }

  /**
   * Checks the signing identity now (before any request): the chain through the path policy
   * minus trust and revocation, `clientUri` among the leaf's SANs, the key matching the leaf.
   *
   * @throws ConfigurationError, CertificateChainError or CryptoError naming the problem.
   */
  async check(clientUri: string | undefined): Promise<void> {
    await this.#identity(clientUri)
  }

  /**
   * A signer for a UDAP JWT whose algorithm the server accepts: the client's checked signing
   * identity when its algorithm is among `advertisedAlgorithms` (or the server names none), else
   * one imported for that list. Algorithm choice takes the key's preferred algorithm the server
   * accepts, so the identity's signer is the one a fresh import would give whenever it qualifies.
   */
  async signer(
    clientUri: string | undefined,
    advertisedAlgorithms: readonly string[],
  ): Promise<JwsSigner> {
    const identity = await this.#identity(clientUri)
    const { signer } = identity
    if (advertisedAlgorithms.length === 0 || advertisedAlgorithms.includes(signer.alg))
      return signer
    const listKey = advertisedAlgorithms.join(' ')
    const forList = identity.signersByList.get(listKey)
    if (forList !== undefined) return forList
    const prepared = await this.#prepare(identity.clientUri, advertisedAlgorithms)
    identity.signersByList.set(listKey, prepared.signer)
    return prepared.signer
  }

  /**
   * The signing identity from the config's key and chain, checked by `prepareUdapSigner` with no
   * algorithm constraint. It needs nothing from the server, so it runs before discovery. Checking
   * parses the chain, matches the key and imports it: the result is reused for a minute (never
   * beyond the leaf's validity), so token requests do not repeat it.
   */
  async #identity(clientUri: string | undefined): Promise<CheckedIdentity> {
    const at = this.#context.options.now().getTime()
    const key = clientUri ?? ''
    const cached = this.#identities.get(key)
    if (cached !== undefined && at < cached.reuseUntil) return cached
    // A registered client's token needs no particular URI: the leaf's first URI SAN stands in.
    const uri = clientUri ?? (await this.#firstSubjectAltName())
    const { signer, leaf } = await this.#prepare(uri, [])
    const identity: CheckedIdentity = {
      clientUri: uri,
      signer,
      signersByList: new Map(),
      reuseUntil: Math.min(at + signerReuseMs, leaf.notAfter.getTime()),
    }
    this.#identities.set(key, identity)
    return identity
  }

  async #prepare(clientUri: string, advertisedAlgorithms: readonly string[]) {
    const { config, options } = this.#context
    return prepareUdapSigner({
      crypto: await this.#context.cryptoBackend(),
      privateKey: config.privateKey,
      certificateChain: config.certificateChain,
      clientUri,
      advertisedAlgorithms,
      algorithm: config.jwtAlgorithm,
      now: options.now(),
    })
  }

  /** The leaf's first URI SAN, or '' (prepareUdapSigner then reports the chain or the URI). */
  async #firstSubjectAltName(): Promise<string> {
    const leaf = this.#context.config.certificateChain?.[0]
    if (leaf === undefined) return ''
    try {
      const crypto = await this.#context.cryptoBackend()
      return (await crypto.parseCertificate(leaf)).subjectAltNameUris[0] ?? ''
    } catch {
      return ''
    }
  }
}
