import type { VerificationAlgorithm, VerifyCertificateChainParams } from '@fhir-auth/core'
import {
  bytesEqual,
  type ParsedCertificate,
  parseCertificate,
  parseCrl,
} from '@fhir-auth/core/backend'
import { type TestLeafName, testPki, testPkiReferenceTime } from '@fhir-auth/test-pki'

/** One signature the chain validation must check, with the signer's key. */
export interface RequiredSignature {
  readonly what: string
  readonly algorithm: VerificationAlgorithm
  readonly signedBytes: Uint8Array
  /** JOSE form (ECDSA `r‖s`), as core's parsers give it. */
  readonly signature: Uint8Array
  readonly signer: ParsedCertificate
}

/** A 3-certificate chain (leaf, intermediate, anchor) with one CRL per CA. */
export interface ChainFixture {
  readonly description: string
  /** Input of `CryptoBackend.verifyCertificateChain`. */
  readonly parameters: VerifyCertificateChainParams
  /** The four signatures any validator must verify: two certificates, two CRLs. */
  readonly requiredSignatures: readonly RequiredSignature[]
}

/**
 * A committed test-PKI chain as a backend sees it: leaf and intermediate (the `x5c`), the one
 * anchor that issued the intermediate, and only the two CRLs of that path (root's and
 * intermediate's), at the PKI's reference time.
 *
 * @throws Error when the test PKI no longer has that shape.
 */
export function chainFixture(leafName: TestLeafName, description: string): ChainFixture {
  const leafCase = testPki.leaves[leafName]
  const [leafDer, intermediateDer] = leafCase.chainDer
  if (leafDer === undefined || intermediateDer === undefined || leafCase.chainDer.length !== 2) {
    throw new Error(`test PKI leaf ${leafName} is not sent as leaf + intermediate`)
  }
  const leaf = parseCertificate(leafDer)
  const intermediate = parseCertificate(intermediateDer)
  const anchorDer = leafCase.trustAnchorsDer.find((der) =>
    bytesEqual(parseCertificate(der).subjectDer, intermediate.issuerDer),
  )
  if (anchorDer === undefined) throw new Error(`no trust anchor issued ${intermediate.subject}`)
  const anchor = parseCertificate(anchorDer)
  const crlByIssuer = (issuer: ParsedCertificate) => {
    const der = leafCase.crlsDer.find((crl) =>
      bytesEqual(parseCrl(crl).issuerDer, issuer.subjectDer),
    )
    if (der === undefined) throw new Error(`the test PKI has no CRL from ${issuer.subject}`)
    return { der, parsed: parseCrl(der) }
  }
  const intermediateCrl = crlByIssuer(intermediate)
  const anchorCrl = crlByIssuer(anchor)
  const required = (
    what: string,
    signed: {
      tbs: Uint8Array
      signature: Uint8Array
      signatureAlgorithm: VerificationAlgorithm | undefined
    },
    signer: ParsedCertificate,
  ): RequiredSignature => {
    if (signed.signatureAlgorithm === undefined) throw new Error(`${what}: unsupported algorithm`)
    return {
      what,
      algorithm: signed.signatureAlgorithm,
      signedBytes: signed.tbs,
      signature: signed.signature,
      signer,
    }
  }
  return {
    description,
    parameters: {
      chain: [leafDer, intermediateDer],
      trustAnchors: [anchorDer],
      crls: [anchorCrl.der, intermediateCrl.der],
      at: testPkiReferenceTime,
    },
    requiredSignatures: [
      required('leaf certificate', leaf, intermediate),
      required('intermediate certificate', intermediate, anchor),
      required('intermediate CRL', intermediateCrl.parsed, intermediate),
      required('root CRL', anchorCrl.parsed, anchor),
    ],
  }
}
