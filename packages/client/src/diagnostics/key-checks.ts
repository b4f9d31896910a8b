import { parseJsonObjectBody, sendRequest, type TransportOptions } from '@fhir-auth/core'
import {
  base64UrlDecode,
  type CryptoBackend,
  type Jwk,
  type PrivateKeyInput,
  publicJwks,
} from '@fhir-auth/core/essentials'
import type { SmartMetadata } from '@fhir-auth/smart/launch'
import type { DiagnosticCheck } from './diagnostic-report.js'

/** The configured key of a confidential asymmetric client, as the key checks need it. */
export interface ConfiguredKey {
  readonly privateKey: PrivateKeyInput | undefined
  readonly kid: string | undefined
  readonly jwtAlgorithm: string | undefined
  readonly jwksUri: string | undefined
}

/** RSA keys below this many bits are refused (NIST SP 800-131A; every EHR's floor). */
const minimumRsaBits = 2048

const notAsymmetric = (id: 'signing-algorithm' | 'key-strength' | 'jwks'): DiagnosticCheck => ({
  id,
  status: 'pass',
  message: 'not used: the client does not sign assertions (not confidential_asymmetric)',
})

/** `signing-algorithm`: the key's algorithm against the server's list. */
export async function checkSigningAlgorithm(
  key: ConfiguredKey | undefined,
  metadata: SmartMetadata,
  crypto: Promise<CryptoBackend>,
): Promise<DiagnosticCheck> {
  if (key === undefined) return notAsymmetric('signing-algorithm')
  if (key.privateKey === undefined) {
    return {
      id: 'signing-algorithm',
      status: 'fail',
      message: 'no privateKey is configured',
      hint: 'set privateKey (and kid) to the key whose public half the server holds (`fhir-auth keys generate --alg ES384`)',
    }
  }
  let alg: string
  try {
    const signer = await (await crypto).importSigner(key.privateKey, {
      profile: 'smart',
      algorithm: key.jwtAlgorithm,
      kid: key.kid,
    })
    alg = signer.alg
  } catch (error) {
    return {
      id: 'signing-algorithm',
      status: 'fail',
      message: `the key cannot sign a SMART assertion: ${(error as Error).message}`,
      hint: 'use an RSA key (RS384) or a P-384 key (ES384)',
    }
  }
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

/** `key-strength`: RSA keys of at least 2048 bits. */
export function checkKeyStrength(key: ConfiguredKey | undefined): DiagnosticCheck {
  if (key === undefined) return notAsymmetric('key-strength')
  const jwk = publicHalf(key.privateKey)
  if (jwk === undefined) {
    return {
      id: 'key-strength',
      status: 'warn',
      message:
        'the key’s public half cannot be read here (an external signer, a CryptoKey, or no key)',
      hint: `check where the key lives that an RSA key has at least ${minimumRsaBits} bits`,
    }
  }
  if (jwk.kty !== 'RSA') {
    return { id: 'key-strength', status: 'pass', message: `an EC ${jwk.crv} key` }
  }
  const bits = modulusBits(jwk.n)
  if (bits < minimumRsaBits) {
    return {
      id: 'key-strength',
      status: 'fail',
      message: `the RSA key has ${bits} bits, under ${minimumRsaBits}`,
      hint: 'generate a new key (`fhir-auth keys generate --alg RS384` makes RSA 3072) and rotate to it',
    }
  }
  return { id: 'key-strength', status: 'pass', message: `an RSA key of ${bits} bits` }
}

/** How a `jwks` check failed: what the `token` check counts as evidence. */
export type JwksProblem = 'unreachable' | 'unknown-kid' | 'other-key' | undefined

/**
 * `jwks`: the configured `jwksUri` answers with a key set that holds the `kid`, under the
 * private key's own public key.
 */
export async function checkJwks(
  key: ConfiguredKey | undefined,
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
    const response = await sendRequest({ ...transport, method: 'GET', url: jwksUri })
    if (response.status !== 200) throw new Error(`HTTP ${response.status}`)
    keys = parseJsonObjectBody(response).keys
  } catch (error) {
    const check: DiagnosticCheck = {
      id: 'jwks',
      status: 'fail',
      message: `${jwksUri} cannot be read: ${(error as Error).message}`,
      hint: 'serve the JWKS at an HTTPS URL the server’s network can reach (about one Epic organisation in five cannot reach one: ask it to register the key itself)',
    }
    return { check, problem: 'unreachable' }
  }
  const published = Array.isArray(keys) ? (keys as Jwk[]) : []
  const match = published.find((candidate) => candidate?.kid === kid)
  if (match === undefined) {
    const kids = published.map((candidate) => candidate?.kid).filter((id) => typeof id === 'string')
    const check: DiagnosticCheck = {
      id: 'jwks',
      status: 'fail',
      message: `${jwksUri} has no key with kid ${JSON.stringify(kid ?? '')} (it has ${kids.length === 0 ? 'none' : kids.map((id) => JSON.stringify(id)).join(', ')})`,
      hint: 'publish the key’s public half under this kid (`fhir-auth keys jwks key.pem` uses its thumbprint), or set kid to the one it is published under',
    }
    return { check, problem: 'unknown-kid' }
  }
  const own = publicHalf(key.privateKey)
  if (own !== undefined && !samePublicKey(own, match)) {
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
    message: `${jwksUri} publishes kid ${JSON.stringify(kid)}${own === undefined ? '' : ' with the private key’s public half'}`,
  }
  return { check, problem: undefined }
}

/** The public JWK of a key, when it can be read without the key's own backend. */
function publicHalf(privateKey: PrivateKeyInput | undefined): Jwk | undefined {
  if (privateKey === undefined) return undefined
  try {
    return publicJwks([privateKey as Parameters<typeof publicJwks>[0][number]]).keys[0]
  } catch {
    return undefined
  }
}

function samePublicKey(own: Jwk, published: Jwk): boolean {
  return own.kty === 'RSA'
    ? published.n === own.n && published.e === own.e
    : published.crv === own.crv && published.x === own.x && published.y === own.y
}

function modulusBits(n: string | undefined): number {
  const bytes = base64UrlDecode(n ?? '') ?? new Uint8Array()
  const first = bytes.findIndex((byte) => byte !== 0)
  if (first === -1) return 0
  return (bytes.length - first - 1) * 8 + (32 - Math.clz32(bytes[first] as number))
}
