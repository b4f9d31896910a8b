/**
 * Object identifiers of the PKCS#12 structures this package reads.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7292#appendix-D
 * @internal
 */
export const pkcs12Oids = Object.freeze({
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  envelopedData: '1.2.840.113549.1.7.3',
  encryptedData: '1.2.840.113549.1.7.6',
  keyBag: '1.2.840.113549.1.12.10.1.1',
  pkcs8ShroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  safeContentsBag: '1.2.840.113549.1.12.10.1.6',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  pbes2: '1.2.840.113549.1.5.13',
  pbmac1: '1.2.840.113549.1.5.14',
})

/** Password-based encryption schemes node-forge decrypts (RFC 8018 PBES2, RFC 7292 PBE). */
export const decryptableSchemes: ReadonlyMap<string, string> = new Map([
  ['1.2.840.113549.1.5.13', 'PBES2'],
  ['1.2.840.113549.1.12.1.3', 'pbeWithSHAAnd3-KeyTripleDES-CBC'],
  ['1.2.840.113549.1.12.1.6', 'pbeWithSHAAnd40BitRC2-CBC'],
])

/** Schemes known by name but not decryptable here, for a precise error message. */
export const undecryptableSchemes: ReadonlyMap<string, string> = new Map([
  ['1.2.840.113549.1.12.1.1', 'pbeWithSHAAnd128BitRC4'],
  ['1.2.840.113549.1.12.1.2', 'pbeWithSHAAnd40BitRC4'],
  ['1.2.840.113549.1.12.1.4', 'pbeWithSHAAnd2-KeyTripleDES-CBC'],
  ['1.2.840.113549.1.12.1.5', 'pbeWithSHAAnd128BitRC2-CBC'],
])

/** MAC digest algorithms (RFC 7292 §5.1 / appendix C) by OID → forge digest name. */
export const macDigests: ReadonlyMap<string, 'sha1' | 'sha256' | 'sha384' | 'sha512'> = new Map([
  ['1.3.14.3.2.26', 'sha1'],
  ['2.16.840.1.101.3.4.2.1', 'sha256'],
  ['2.16.840.1.101.3.4.2.2', 'sha384'],
  ['2.16.840.1.101.3.4.2.3', 'sha512'],
])
