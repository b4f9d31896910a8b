import type {
  CryptoBackend,
  Jwk,
  PrivateKeyInput,
  SigningAlgorithm,
  TransportOptions,
} from '@fhir-auth/core/essentials'
import type { SmartMetadata } from '@fhir-auth/smart/launch'
import type { DiagnosticCheck } from './diagnostic-report.js'
import type { DiagnosticServerAccess } from './server-access.js'

/** The configured key of a confidential asymmetric client, as the key checks need it. */
export interface ConfiguredKey {
  readonly privateKey: PrivateKeyInput | undefined
  readonly kid: string | undefined
  readonly jwtAlgorithm: string | undefined
  readonly jwksUri: string | undefined
}

/**
 * The key at work: a signature over a fixed probe, made by the signer the client would use.
 * The key checks read only this, so they hold for a KMS or HSM signer too: an RSA signature is
 * as long as the modulus, and the published key either verifies it or is another key.
 */
export type KeyProbe =
  | {
      readonly alg: SigningAlgorithm
      readonly data: Uint8Array
      readonly signature: Uint8Array
    }
  | {
      readonly problem: string
      /** The modulus size of an RSA key the backend refused as too short, when it said so. */
      readonly shortRsaBits?: number | undefined
    }

/** RSA keys below this many bits are refused (NIST SP 800-131A; every EHR's floor). */
const minimumRsaBits = 2048

const probeData = new TextEncoder().encode('fhir-auth diagnose: key probe')

/** Signs the probe with the configured key, as a client assertion would be signed. */
export async function probeKey(
  key: ConfiguredKey,
  crypto: Promise<CryptoBackend>,
): Promise<KeyProbe> {
  if (key.privateKey === undefined) return { problem: 'no privateKey is configured' }
  try {
    const signer = await (await crypto).importSigner(key.privateKey, {
      profile: 'smart',
      algorithm: key.jwtAlgorithm,
      kid: key.kid,
    })
    // The bundled backends sign ECDSA as JOSE r‖s, the form verifySignature takes.
    return { alg: signer.alg, data: probeData, signature: await signer.sign(probeData) }
  } catch (error) {
    const message = (error as Error).message
    // Both bundled backends refuse RSA keys under 2048 bits before signing, saying how long.
    const bits = /\bRSA key has (\d+) bits\b/.exec(message)?.[1]
    return {
      problem: `the key cannot sign a SMART assertion: ${message}`,
      shortRsaBits: bits === undefined ? undefined : Number(bits),
    }
  }
}

const notAsymmetric = (id: 'signing-algorithm' | 'key-strength' | 'jwks'): DiagnosticCheck => ({
  id,
  status: 'pass',
  message: 'not used: the client does not sign assertions (not confidential_asymmetric)',
})

/** `signing-algorithm`: the key's algorithm against the server's list. */
export function checkSigningAlgorithm(
  probe: KeyProbe | undefined,
  metadata: SmartMetadata,
): DiagnosticCheck {
  if (probe === undefined) return notAsymmetric('signing-algorithm')
  if ('problem' in probe) {
    return {
      id: 'signing-algorithm',
      status: 'fail',
      message: probe.problem,
      hint: 'configure privateKey (and kid) with an RSA key (RS384) or a P-384 key (ES384) whose public half the server holds',
    }
  }
  const { alg } = probe
  const accepted = metadata.tokenEndpointAuthSigningAlgValuesSupported
  if (accepted === undefined) {
    return {
      id: 'signing-algorithm',
      status: 'warn',
      message: `the key signs with ${alg}; the server lists no token_endpoint_auth_signing_alg_values_supported`,
      hint: 'nothing to change unless the server answers invalid_client; SMART servers accept RS384 and ES384',
    }
  }
  if (!accepted.includes(alg)) {
    return {
      id: 'signing-algorithm',
      status: 'fail',
      message: `the key signs with ${alg}; the server accepts ${accepted.join(', ') || 'none'}`,
      hint: `use a key for one of ${accepted.join(', ')} (\`fhir-auth keys generate --alg RS384\` for RSA), and register its public half`,
    }
  }
  return {
    id: 'signing-algorithm',
    status: 'pass',
    message: `the key signs with ${alg}, which the server accepts`,
  }
}

/** `key-strength`: RSA keys of at least 2048 bits (an RSA signature is as long as the modulus). */
export function checkKeyStrength(probe: KeyProbe | undefined): DiagnosticCheck {
  if (probe === undefined) return notAsymmetric('key-strength')
  if ('problem' in probe && probe.shortRsaBits !== undefined) {
    return weakRsaKey(probe.shortRsaBits)
  }
  if ('problem' in probe) {
    return {
      id: 'key-strength',
      status: 'warn',
      message: 'not checked: the key cannot sign',
      hint: 'fix the signing-algorithm check first',
    }
  }
  if (!probe.alg.startsWith('RS')) {
    return { id: 'key-strength', status: 'pass', message: `an EC key (${probe.alg})` }
  }
  const bits = probe.signature.length * 8
  if (bits < minimumRsaBits) return weakRsaKey(bits)
  return { id: 'key-strength', status: 'pass', message: `an RSA key of ${bits} bits` }
}

function weakRsaKey(bits: number): DiagnosticCheck {
  return {
    id: 'key-strength',
    status: 'fail',
    message: `the RSA key has ${bits} bits, under ${minimumRsaBits}`,
    hint: 'generate a new key (`fhir-auth keys generate --alg RS384` makes RSA 3072) and rotate to it',
  }
}

/** How a `jwks` check failed: what the `token` check counts as evidence. */
export type JwksProblem = 'unreachable' | 'unknown-kid' | 'other-key' | undefined

/**
 * `jwks`: the configured `jwksUri` answers with a key set that holds the `kid`, and the key
 * under it verifies what the private key signed.
 */
export async function checkJwks(
  server: DiagnosticServerAccess,
  key: ConfiguredKey | undefined,
  probe: KeyProbe | undefined,
  transport: TransportOptions,
): Promise<{ readonly check: DiagnosticCheck; readonly problem: JwksProblem }> {
  if (key === undefined) return { check: notAsymmetric('jwks'), problem: undefined }
  const { jwksUri, kid } = key
  if (jwksUri === undefined) {
    const check: DiagnosticCheck = {
      id: 'jwks',
      status: 'warn',
      message: 'no jwksUri is configured: the server must hold the public key from registration',
      hint: 'Epic requires a JWKS URL for backend apps: serve publicJwks([key]) (or `fhir-auth keys jwks key.pem`) at an HTTPS URL, register it, and set jwksUri',
    }
    return { check, problem: undefined }
  }
  let keys: unknown
  try {
    keys = (await server.fetchJsonObject(jwksUri, 'JWKS', transport)).keys
  } catch (error) {
    const check: DiagnosticCheck = {
      id: 'jwks',
      status: 'fail',
      message: `${jwksUri} cannot be read: ${(error as Error).message}`,
      hint: 'serve the JWKS at an HTTPS URL the server’s network can reach (about one Epic organisation in five cannot reach one: ask it to register the key itself)',
    }
    return { check, problem: 'unreachable' }
  }
  const published = Array.isArray(keys) ? (keys as unknown[]).filter(isObject) : []
  const match = published.find((candidate) => candidate.kid === kid)
  if (match === undefined) {
    const kids = published.map((candidate) => candidate.kid).filter((id) => typeof id === 'string')
    const check: DiagnosticCheck = {
      id: 'jwks',
      status: 'fail',
      message: `${jwksUri} has no key with kid ${JSON.stringify(kid ?? '')} (it has ${kids.length === 0 ? 'none' : kids.map((id) => JSON.stringify(id)).join(', ')})`,
      hint: 'publish the key’s public half under this kid (`fhir-auth keys jwks key.pem` uses its thumbprint), or set kid to the one it is published under',
    }
    return { check, problem: 'unknown-kid' }
  }
  if (probe !== undefined && !('problem' in probe) && !(await verifies(match, probe))) {
    const check: DiagnosticCheck = {
      id: 'jwks',
      status: 'fail',
      message: `the key published as kid ${JSON.stringify(kid)} is not the private key’s public half`,
      hint: 'publish publicJwks([privateKey]) (or `fhir-auth keys jwks key.pem`), or configure the private key that belongs to the published one',
    }
    return { check, problem: 'other-key' }
  }
  const check: DiagnosticCheck = {
    id: 'jwks',
    status: 'pass',
    message: `${jwksUri} publishes kid ${JSON.stringify(kid)} with the private key’s public half`,
  }
  return { check, problem: undefined }
}

/**
 * Whether the published key verifies the probe, with WebCrypto itself: a diagnosis needs no
 * backend for it, and importing the library's JWK-to-SPKI code would put a chunk more in every
 * browser app (ADR 0012).
 */
async function verifies(
  published: Jwk,
  probe: {
    readonly alg: SigningAlgorithm
    readonly data: Uint8Array
    readonly signature: Uint8Array
  },
): Promise<boolean> {
  const hash = `SHA-${probe.alg.slice(2)}`
  const algorithm = probe.alg.startsWith('RS')
    ? { name: 'RSASSA-PKCS1-v1_5', hash }
    : { name: 'ECDSA', namedCurve: `P-${probe.alg.slice(2)}`, hash }
  try {
    const { kty, n, e, crv, x, y } = published
    const key = await globalThis.crypto.subtle.importKey(
      'jwk',
      { kty, n, e, crv, x, y } as JsonWebKey,
      algorithm,
      false,
      ['verify'],
    )
    return await globalThis.crypto.subtle.verify(
      algorithm,
      key,
      probe.signature as Uint8Array<ArrayBuffer>,
      probe.data as Uint8Array<ArrayBuffer>,
    )
  } catch {
    return false
  }
}

function isObject(value: unknown): value is Jwk {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
