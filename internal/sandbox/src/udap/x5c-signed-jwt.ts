import { compactVerify, decodeProtectedHeader, importX509 } from 'jose'
import type * as pkijs from 'pkijs'
import { parseJsonObject } from '../http/body-format.js'
import { BoundedCache } from './bounded-cache.js'
import { toPkiObject } from './pki-object.js'
import { parseCertificateDer } from './pkijs-parsing.js'

/** A JWT whose signature verified with the key of its `x5c[0]` certificate. */
export interface VerifiedX5cJwt {
  readonly algorithm: string
  readonly claims: Readonly<Record<string, unknown>>
  /** The `x5c` certificates, leaf first, parsed. */
  readonly chain: readonly pkijs.Certificate[]
  /** The DER of the `x5c` certificates, leaf first. */
  readonly chainDer: readonly Uint8Array[]
  /** The DER of `x5c[0]`. */
  readonly leafDer: Uint8Array
}

/**
 * Which JWS rule a token broke: not a compact JWS (`jws`), `alg` not allowed, `x5c` missing or
 * unusable, the signature, or a payload that is not a JSON object.
 */
export type X5cJwtRule = 'jws' | 'alg' | 'x5c' | 'signature' | 'payload'

/** The outcome of {@link verifyX5cSignedJwt}; `message` never contains the token. */
export type X5cJwtResult =
  | { readonly verified: true; readonly jwt: VerifiedX5cJwt }
  | { readonly verified: false; readonly rule: X5cJwtRule; readonly message: string }

const standardBase64 = /^[A-Za-z0-9+/]+={0,2}$/

/**
 * Verifies a compact JWS signed with the private key of the certificate in `x5c[0]`, as UDAP
 * software statements and authentication tokens must be (udap.org DCR §4, JWT client auth §6).
 * Uses jose, independent of the fhir-auth crypto code it is used to test.
 *
 * Checks, in order: a protected header with `alg` in `allowedAlgorithms`; `x5c` a non-empty
 * array of standard-base64 DER certificates; the signature with `x5c[0]`'s public key (the key
 * type must fit `alg`); a payload that is a JSON object. Claims are the caller's business.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-4.1.6
 */
export async function verifyX5cSignedJwt(
  token: string,
  allowedAlgorithms: readonly string[],
): Promise<X5cJwtResult> {
  let header: Record<string, unknown>
  try {
    header = decodeProtectedHeader(token)
  } catch {
    return rejected('jws', 'is not a compact JWS with a JSON protected header')
  }
  const algorithm = header.alg
  if (typeof algorithm !== 'string' || !allowedAlgorithms.includes(algorithm)) {
    return rejected(
      'alg',
      `alg ${JSON.stringify(algorithm ?? null)} is not one of the advertised ${allowedAlgorithms.join(', ')}`,
    )
  }
  const x5c = header.x5c
  if (!Array.isArray(x5c) || x5c.length === 0) {
    return rejected('x5c', 'has no x5c header (a non-empty array of certificates is required)')
  }
  const chain: pkijs.Certificate[] = []
  const chainDer: Uint8Array[] = []
  for (const [index, entry] of x5c.entries()) {
    const parsed = typeof entry === 'string' ? parseX5cEntry(entry) : undefined
    if (parsed === undefined) {
      return rejected('x5c', `x5c[${index}] is not a standard-base64 DER X.509 certificate`)
    }
    chain.push(parsed.certificate)
    chainDer.push(parsed.der)
  }
  const leafDer = chainDer[0] as Uint8Array
  let payload: Uint8Array
  try {
    const key = await verificationKey(leafDer, algorithm)
    payload = (await compactVerify(token, key, { algorithms: [algorithm] })).payload
  } catch {
    return rejected(
      'signature',
      `signature does not verify with the key of the x5c[0] certificate (alg ${algorithm})`,
    )
  }
  const claims = parseJsonObject(new TextDecoder().decode(payload))
  if (claims === undefined) return rejected('payload', 'payload is not a JSON object')
  return { verified: true, jwt: { algorithm, claims, chain, chainDer, leafDer } }
}

/** Imported verification keys by certificate and algorithm: clients reuse one certificate. */
const verificationKeys = new BoundedCache<string, CryptoKey>(1000)

async function verificationKey(certificateDer: Uint8Array, algorithm: string): Promise<CryptoKey> {
  const pem = toPkiObject(certificateDer, 'CERTIFICATE').pem
  const cacheKey = `${algorithm} ${pem}`
  const cached = verificationKeys.get(cacheKey)
  if (cached !== undefined) return cached
  const key = await importX509(pem, algorithm)
  verificationKeys.set(cacheKey, key)
  return key
}

/** Parsed `x5c` entries by their base64 text: pkijs parsing costs about a millisecond each. */
const parsedEntries = new BoundedCache<string, ParsedEntry>(1000)

interface ParsedEntry {
  readonly der: Uint8Array
  readonly certificate: pkijs.Certificate
}

function parseX5cEntry(entry: string): ParsedEntry | undefined {
  const cached = parsedEntries.get(entry)
  if (cached !== undefined) return cached
  if (!standardBase64.test(entry)) return undefined
  const der = new Uint8Array(Buffer.from(entry, 'base64'))
  try {
    const parsed = { der, certificate: parseCertificateDer(der) }
    parsedEntries.set(entry, parsed)
    return parsed
  } catch {
    return undefined
  }
}

function rejected(rule: X5cJwtRule, problem: string): X5cJwtResult {
  return { verified: false, rule, message: problem }
}
