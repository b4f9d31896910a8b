/**
 * Reads the JWTs the library put on the wire without using the library: `node:crypto` and
 * `Buffer` only, so a bug in fhir-auth's JWS code cannot hide itself from these checks.
 */
import { verify, X509Certificate } from 'node:crypto'

/** A compact JWS split and decoded. */
export interface InspectedJws {
  readonly header: Readonly<Record<string, unknown>>
  readonly claims: Readonly<Record<string, unknown>>
}

/** Decodes a compact JWS's header and claims (base64url JSON); throws when it is not one. */
export function inspectJws(jws: unknown): InspectedJws {
  if (typeof jws !== 'string') throw new Error(`expected a compact JWS string, got ${typeof jws}`)
  const parts = jws.split('.')
  if (parts.length !== 3) throw new Error(`expected 3 JWS parts, got ${parts.length}`)
  const [header, claims] = parts
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')))
  return { header, claims }
}

/** Digest per JWS algorithm; ECDSA signatures are JOSE `r || s` (IEEE P1363), not DER. */
const digests: Readonly<Record<string, string>> = {
  RS256: 'sha256',
  RS384: 'sha384',
  ES256: 'sha256',
  ES384: 'sha384',
}

/**
 * True when the JWS signature verifies with the public key of the certificate in `x5c[0]`
 * (UDAP: the leaf certificate's key signs every software statement and authentication token).
 */
export function verifiesWithFirstX5c(jws: string): boolean {
  const { header } = inspectJws(jws)
  const x5c = header.x5c
  const digest = typeof header.alg === 'string' ? digests[header.alg] : undefined
  if (!Array.isArray(x5c) || typeof x5c[0] !== 'string' || digest === undefined) return false
  const certificate = new X509Certificate(Buffer.from(x5c[0], 'base64'))
  const [encodedHeader, encodedClaims, encodedSignature] = jws.split('.')
  return verify(
    digest,
    Buffer.from(`${encodedHeader}.${encodedClaims}`),
    { key: certificate.publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(encodedSignature ?? '', 'base64url'),
  )
}

/** Standard base64 with padding (RFC 4648 §4), the `x5c` encoding (RFC 7515 §4.1.6). */
export function standardBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64')
}
