import * as pkijs from 'pkijs'

/**
 * Parses DER bytes as an X.509 certificate with pkijs.
 *
 * @throws {Error} from pkijs/asn1js when the bytes are not a certificate (callers map it).
 */
export function parseCertificateDer(der: Uint8Array): pkijs.Certificate {
  // pkijs wants a view on a plain ArrayBuffer; copying also detaches it from the caller's bytes.
  return pkijs.Certificate.fromBER(new Uint8Array(der))
}

/**
 * Parses DER bytes as an X.509 CRL with pkijs.
 *
 * @throws {Error} from pkijs/asn1js when the bytes are not a CRL (callers map it).
 */
export function parseCrlDer(der: Uint8Array): pkijs.CertificateRevocationList {
  return pkijs.CertificateRevocationList.fromBER(new Uint8Array(der))
}
