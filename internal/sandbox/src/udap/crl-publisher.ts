import type { CertificateAuthority, IssuedCrl } from '@fhir-auth/test-pki/issuer'

const hourMs = 3_600_000
const dayMs = 24 * hourMs

/**
 * Publishes the CRLs of one CA of the sandbox: the current one (re-issued with a higher CRL
 * number whenever a serial is revoked) and deliberately broken ones for negative tests.
 *
 * Current CRLs are valid from one hour before `now()` at issue time for 30 days, so tests that
 * move the sandbox clock by minutes or hours keep fresh CRLs.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-5
 */
export class CrlPublisher {
  readonly authority: CertificateAuthority
  readonly #now: () => Date
  readonly #revokedSerials = new Set<string>()
  #crlNumber = 1n
  #current: IssuedCrl | undefined

  constructor(authority: CertificateAuthority, now: () => Date) {
    this.authority = authority
    this.#now = now
  }

  /** Lists `serialNumber` (hex, as `IssuedCertificate.serialNumber`) from the next CRL on. */
  revoke(serialNumber: string): void {
    const serial = serialNumber.toLowerCase().replace(/^0+(?=.)/, '')
    if (this.#revokedSerials.has(serial)) return
    this.#revokedSerials.add(serial)
    this.#crlNumber += 1n
    this.#current = undefined
  }

  /** The current CRL: fresh, correctly signed, listing every revoked serial. */
  current(): IssuedCrl {
    this.#current ??= this.#issue(this.#now().getTime() - hourMs, 30 * dayMs, false)
    return this.#current
  }

  /** A correctly signed CRL whose `nextUpdate` passed a day ago. */
  stale(): IssuedCrl {
    return this.#issue(this.#now().getTime() - 8 * dayMs, 7 * dayMs, false)
  }

  /** A current CRL whose signature does not verify (last byte flipped). */
  badSignature(): IssuedCrl {
    return this.#issue(this.#now().getTime() - hourMs, 30 * dayMs, true)
  }

  #issue(thisUpdateMs: number, lifetimeMs: number, corruptSignature: boolean): IssuedCrl {
    return this.authority.crl({
      revokedSerials: [...this.#revokedSerials],
      thisUpdate: new Date(thisUpdateMs),
      nextUpdate: new Date(thisUpdateMs + lifetimeMs),
      crlNumber: this.#crlNumber,
      corruptSignature,
    })
  }
}
