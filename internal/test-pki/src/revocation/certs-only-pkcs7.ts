import { concatBytes, encodeDer, encodeDerOid, encodeDerSequence } from '@fhir-auth/core/backend'

/**
 * A "certs-only" PKCS#7 / CMS SignedData (`.p7c`): ContentInfo { signedData, [0] SignedData {
 * version 1, digestAlgorithms {}, encapContentInfo { data }, [0] certificates, signerInfos {} } }.
 */
export function certsOnlyPkcs7(certificates: readonly Uint8Array[]): Uint8Array {
  const signedData = encodeDerSequence(
    encodeDer(0x02, Uint8Array.of(1)),
    encodeDer(0x31, new Uint8Array()),
    encodeDerSequence(encodeDerOid('1.2.840.113549.1.7.1')),
    encodeDer(0xa0, concatBytes(...certificates)),
    encodeDer(0x31, new Uint8Array()),
  )
  return encodeDerSequence(encodeDerOid('1.2.840.113549.1.7.2'), encodeDer(0xa0, signedData))
}
