import { ConfigurationError } from '@fhir-auth/core'
import type { ParsedTrustStore } from './certificate-path-validation.js'
import { parseCertificateDer, parseCrlDer } from './pkijs-parsing.js'

/** Anchors and CRLs in DER, as the sandbox's CAs and the `clientTrust` option provide them. */
export interface TrustSource {
  readonly anchorsDer: readonly Uint8Array[]
  readonly crlsDer: readonly Uint8Array[]
}

/**
 * The anchors and CRLs the server validates client certificates against, parsed with pkijs.
 * The source is read on every use (a revocation re-issues a CRL); parsing is redone only when
 * one of the DER objects changed.
 */
export class ClientTrustStore {
  readonly #source: () => TrustSource
  readonly #attribute: string
  #parsedFrom: TrustSource | undefined
  #parsed: ParsedTrustStore | undefined

  /** @param attribute the option the DER comes from, named in parse errors. */
  constructor(source: () => TrustSource, attribute = 'clientTrust') {
    this.#source = source
    this.#attribute = attribute
  }

  /**
   * The current trust store.
   *
   * @throws {ConfigurationError} `invalidAttribute` = the constructor's `attribute` when an
   *   anchor or CRL does not parse (only configured extras can).
   */
  current(): ParsedTrustStore {
    const source = this.#source()
    if (
      this.#parsed !== undefined &&
      this.#parsedFrom !== undefined &&
      sameSource(source, this.#parsedFrom)
    ) {
      return this.#parsed
    }
    this.#parsed = {
      anchors: source.anchorsDer.map((der) =>
        parse(() => parseCertificateDer(der), 'a trust anchor', this.#attribute),
      ),
      crls: source.crlsDer.map((der) => parse(() => parseCrlDer(der), 'a CRL', this.#attribute)),
    }
    this.#parsedFrom = source
    return this.#parsed
  }
}

function sameSource(left: TrustSource, right: TrustSource): boolean {
  const sameList = (a: readonly Uint8Array[], b: readonly Uint8Array[]) =>
    a.length === b.length && a.every((entry, index) => entry === b[index])
  return sameList(left.anchorsDer, right.anchorsDer) && sameList(left.crlsDer, right.crlsDer)
}

function parse<T>(read: () => T, what: string, attribute: string): T {
  try {
    return read()
  } catch (error) {
    throw new ConfigurationError(
      {
        invalidAttribute: attribute,
        message: `${attribute} holds ${what} that does not parse as DER`,
      },
      { cause: error },
    )
  }
}

/** DER anchors and CRLs given as options or added at run time. */
export interface TrustExtras {
  readonly anchorsDer: readonly Uint8Array[]
  readonly crlsDer: readonly Uint8Array[]
}

/**
 * A {@link ClientTrustStore} over a fixed source (the sandbox's own communities) plus extras
 * that can grow while the sandbox runs (`sandbox.trustClients`, `trustIdentityProviders`).
 */
export class ExtensibleTrustStore {
  readonly store: ClientTrustStore
  readonly #anchorsDer: Uint8Array[]
  readonly #crlsDer: Uint8Array[]

  constructor(base: () => TrustSource, extras: TrustExtras, attribute: string) {
    this.#anchorsDer = [...extras.anchorsDer]
    this.#crlsDer = [...extras.crlsDer]
    this.store = new ClientTrustStore(() => {
      const fixed = base()
      return {
        anchorsDer: [...fixed.anchorsDer, ...this.#anchorsDer],
        crlsDer: [...fixed.crlsDer, ...this.#crlsDer],
      }
    }, attribute)
    this.store.current()
  }

  /**
   * Trusts more anchors and CRLs from now on. They are parsed at once.
   *
   * @throws {ConfigurationError} one does not parse; nothing is added then.
   */
  add(extras: TrustExtras): void {
    const before = { anchors: this.#anchorsDer.length, crls: this.#crlsDer.length }
    this.#anchorsDer.push(...extras.anchorsDer)
    this.#crlsDer.push(...extras.crlsDer)
    try {
      this.store.current()
    } catch (error) {
      this.#anchorsDer.length = before.anchors
      this.#crlsDer.length = before.crls
      throw error
    }
  }
}
