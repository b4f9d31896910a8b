import { ConfigurationError } from '@fhir-auth/core'

/** A certificate or CRL in both encodings, so tests can hand over whichever the client takes. */
export interface PkiObject {
  readonly pem: string
  readonly der: Uint8Array
}

/**
 * CRL sets that are each wrong in exactly one way: the CRL of the CA that issued the server
 * certificate is stale, carries a bad signature, or is missing; every other CRL is current.
 * A client given one of them (with the right anchors) must refuse the metadata.
 */
export interface UdapCrlVariants {
  /** The issuing CA's CRL has a `nextUpdate` in the past. */
  readonly stale: readonly PkiObject[]
  /** The issuing CA's CRL has one signature byte flipped. */
  readonly badSignature: readonly PkiObject[]
  /** The issuing CA's CRL is absent. */
  readonly missing: readonly PkiObject[]
}

/** What a client needs to trust one community of the sandbox. */
export interface UdapTrust {
  readonly community: string
  /** The community's self-signed root certificate(s). */
  readonly anchors: readonly PkiObject[]
  /** Current CRLs for every CA under the anchors (fail-closed clients need all of them). */
  readonly crls: readonly PkiObject[]
  readonly crlVariants: UdapCrlVariants
}

/** Wraps DER bytes as a {@link PkiObject} with the given PEM label. */
export function toPkiObject(der: Uint8Array, label: 'CERTIFICATE' | 'X509 CRL'): PkiObject {
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? []
  return { der, pem: `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n` }
}

/** Standard base64 (as in `x5c`, RFC 7515 §4.1.6) of DER bytes. */
export function toBase64(der: Uint8Array): string {
  return Buffer.from(der).toString('base64')
}

const pemBlockPattern = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g

/**
 * The DER bytes of every PEM block in `input` (or `input` itself when it is DER already).
 *
 * @throws {ConfigurationError} `invalidAttribute` = `attribute` when a string holds no PEM block.
 */
export function readPkiInput(input: string | Uint8Array, attribute: string): Uint8Array[] {
  if (input instanceof Uint8Array) return [input]
  if (typeof input !== 'string') {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: input,
      message: `${attribute} entries must be PEM text or DER bytes`,
    })
  }
  const blocks = [...input.matchAll(pemBlockPattern)].map(
    (match) => new Uint8Array(Buffer.from((match[2] ?? '').replace(/\s+/g, ''), 'base64')),
  )
  if (blocks.length === 0) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: input,
      message: `${attribute} entry holds no PEM block`,
    })
  }
  return blocks
}
