import { splitCertificateInput } from '@fhir-auth/core/backend'
import {
  type CertificateInfo,
  type CertificateInput,
  ConfigurationError,
  type CrlInput,
  type CryptoBackend,
  CryptoError,
  type KeyValueStore,
} from '@fhir-auth/core/essentials'
import { describeKind, readOptions } from '@fhir-auth/core/internal'
import { revocationMemory } from '@fhir-auth/core/revocation'

/**
 * How revocation is looked up online when `crls` has no CRL from a certificate's issuer.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.13
 */
export interface UdapRevocationOptions {
  /**
   * Fetch CRLs from the distribution points of the certificates that already chain to an
   * anchor (`http:`/`https:`, the transport's timeout, 10 MiB cap), else ask their OCSP
   * responders (with a request nonce, RFC 8954), and fetch a missing intermediate from AIA
   * `caIssuers`. Default `true`; `false` makes a certificate without a CRL in `crls`
   * `crl-missing`.
   */
  readonly fetch?: boolean | undefined
  /**
   * Where what is fetched is kept: CRLs and `good`/`revoked` OCSP answers until their
   * `nextUpdate` (`unknown` never), `caIssuers` certificates for a day at most. A shared store
   * lets a fleet fetch each once. The signed documents are kept and judged again on every read,
   * so a rewritten entry is no entry, never a verdict. Default: the client's memory (a call of
   * the functional API: that call's).
   *
   * @see https://www.rfc-editor.org/rfc/rfc6960#section-4.2.2.1
   */
  readonly cache?: KeyValueStore | undefined
}

/**
 * A cache for fetched revocation information in this process's memory: what a `Client` keeps
 * its CRLs, OCSP answers and `caIssuers` certificates in when the caller names no
 * `revocation.cache`.
 *
 * @internal
 */
export function createRevocationCache(): KeyValueStore {
  return revocationMemory()
}

/**
 * What the client trusts when it validates a server's `signed_metadata`: the trust anchors of
 * its community and how revocation is proved for every certificate in the server's chain.
 *
 * Revocation checking is required (fail closed): every certificate below the anchor needs a
 * current CRL from `crls` or, when `crls` has none from its issuer, from its CRL distribution
 * points (`revocation`); when none can be had, validation fails with `revocation-unavailable`
 * (`crl-missing` with `revocation: { fetch: false }`).
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 */
export interface UdapTrustInputs {
  /**
   * Trust anchor certificates (PEM, DER or the backend's objects); at least one. A PEM entry
   * may hold several anchors: every one is trusted.
   */
  readonly trustedAnchors: readonly CertificateInput[]
  /** CRLs (PEM or DER) for the CAs in the server's chain; default none (fetched instead). */
  readonly crls?: readonly CrlInput[] | undefined
  /** Online revocation; default: fetched, cached in the client. */
  readonly revocation?: UdapRevocationOptions | undefined
}

/**
 * Checks the shape of the trust inputs before any request: `trustedAnchors` a non-empty array of
 * certificates (PEM strings, DER bytes or the crypto backend's certificate objects), `crls`
 * (when given) an array of PEM strings or DER bytes, `revocation` (when given) `{ fetch?, cache? }`.
 * Whether each certificate parses is the backend's to say.
 *
 * @returns the inputs as given, `crls` an empty array when omitted.
 * @throws ConfigurationError `trustedAnchors`, `crls` or `revocation`, naming what is wrong.
 * @example
 * ```ts
 * const trust = checkUdapTrustInputs({ trustedAnchors: [communityRootPem], crls: [rootCrlPem] })
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 */
export function checkUdapTrustInputs(inputs: Partial<UdapTrustInputs>): UdapTrustInputs {
  const { trustedAnchors, crls = [] } = inputs
  const revocation = checkRevocationOptions(inputs.revocation)
  if (!Array.isArray(trustedAnchors) || trustedAnchors.length === 0) {
    throw new ConfigurationError({
      invalidAttribute: 'trustedAnchors',
      message: `trustedAnchors must be a non-empty array of trust anchor certificates (PEM or DER), not ${Array.isArray(trustedAnchors) ? 'an empty array' : describeKind(trustedAnchors)}`,
    })
  }
  if (!Array.isArray(crls)) {
    throw new ConfigurationError({
      invalidAttribute: 'crls',
      message: `crls must be an array of CRLs (PEM or DER), not ${describeKind(crls)}`,
    })
  }
  const badAnchor = trustedAnchors.findIndex(
    (anchor) => typeof anchor !== 'string' && (typeof anchor !== 'object' || anchor === null),
  )
  if (badAnchor >= 0) {
    throw new ConfigurationError({
      invalidAttribute: 'trustedAnchors',
      message: `trustedAnchors[${badAnchor}] must be a certificate (PEM, DER or the crypto backend's certificate object), not ${describeKind(trustedAnchors[badAnchor])}`,
    })
  }
  const badCrl = crls.findIndex((crl) => typeof crl !== 'string' && !(crl instanceof Uint8Array))
  if (badCrl >= 0) {
    throw new ConfigurationError({
      invalidAttribute: 'crls',
      message: `crls[${badCrl}] must be a PEM string or DER bytes, not ${describeKind(crls[badCrl])}`,
    })
  }
  return { trustedAnchors, crls, revocation }
}

/**
 * `revocation`, read once as {@link readOptions} reads options objects (own members only; an
 * array, or an object whose members cannot be read, is refused like any other non-object).
 */
function checkRevocationOptions(value: unknown): UdapRevocationOptions | undefined {
  if (value === undefined) return undefined
  const kind = describeKind(value)
  let options: Partial<UdapRevocationOptions> | undefined
  try {
    options = readOptions(value as UdapRevocationOptions, 'revocation', { required: true })
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error
  }
  const problem =
    options === undefined
      ? `not ${kind === 'an object' ? 'an object whose members cannot be read' : kind}`
      : Object.keys(options).some((name) => name !== 'fetch' && name !== 'cache')
        ? 'with only the options fetch and cache'
        : !['boolean', 'undefined'].includes(typeof options.fetch)
          ? 'whose fetch is a boolean'
          : !isStore(options.cache)
            ? 'whose cache is a KeyValueStore (get, set, delete, setIfAbsent)'
            : undefined
  if (problem === undefined) return options as UdapRevocationOptions
  throw new ConfigurationError({
    invalidAttribute: 'revocation',
    message: `revocation must be an object { fetch?, cache? }, ${problem}`,
  })
}

function isStore(value: unknown): boolean {
  if (value === undefined) return true
  if (typeof value !== 'object' || value === null) return false
  return ['get', 'set', 'delete', 'setIfAbsent'].every(
    (name) => typeof Reflect.get(value, name) === 'function',
  )
}

/**
 * Checks the trust inputs before any request: the shapes (see {@link checkUdapTrustInputs}),
 * then every anchor parsed by the backend. A malformed anchor is the caller's configuration
 * mistake and is reported as such, not as an untrusted server.
 *
 * @returns the parsed anchors (in input order; every certificate of a PEM bundle).
 * @throws ConfigurationError `trustedAnchors` or `crls`, with the backend's `CryptoError` as
 *   `cause` for an anchor that does not parse.
 * @internal
 */
export async function checkTrustInputs(
  inputs: Partial<UdapTrustInputs>,
  crypto: CryptoBackend,
): Promise<readonly CertificateInfo[]> {
  const { trustedAnchors } = checkUdapTrustInputs(inputs)
  const anchors: CertificateInfo[] = []
  for (const [index, entry] of trustedAnchors.entries()) {
    try {
      // A PEM entry may be a bundle of anchors: every one of them is trusted.
      for (const anchor of splitCertificateInput(entry)) {
        anchors.push(await crypto.parseCertificate(anchor as CertificateInput))
      }
    } catch (error) {
      if (!(CryptoError.isInstance(error) || ConfigurationError.isInstance(error))) throw error
      throw new ConfigurationError(
        {
          invalidAttribute: 'trustedAnchors',
          message: `trustedAnchors[${index}] is not a certificate the crypto backend can read`,
        },
        { cause: error },
      )
    }
  }
  return anchors
}
