import { FhirAuthError, generateJti, type JwsSigner } from '@fhir-auth/core'
import { signCompactJws } from '@fhir-auth/core/jws'

/**
 * A signer whose private key never leaves your KMS or HSM: the library hands it the JWS
 * signing input and expects the JOSE signature back (ECDSA as r‖s, 96 bytes for ES384).
 */
export function kmsSigner(
  kid: string,
  signInKms: (signingInput: Uint8Array) => Promise<Uint8Array>,
): JwsSigner {
  return { alg: 'ES384', kid, sign: signInKms }
}

/** A SMART `private_key_jwt` client assertion, valid for five minutes. */
export async function clientAssertion(
  signer: JwsSigner,
  clientId: string,
  tokenEndpoint: string,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return signCompactJws(
    { typ: 'JWT', kid: signer.kid },
    { iss: clientId, sub: clientId, aud: tokenEndpoint, exp: now + 300, jti: generateJti() },
    signer,
  )
}

/** One line for a log, whatever a fhir-auth call threw; messages never contain secrets. */
export function describeFailure(error: unknown): string {
  if (!FhirAuthError.isFhirAuthError(error)) return 'unexpected failure'
  switch (error.code) {
    case 'ERR_CONFIGURATION':
      return `fix the configuration: ${error.message}`
    case 'ERR_DISCOVERY':
    case 'ERR_HTTP':
      return `the server could not be reached or understood: ${error.message}`
    default:
      return `${error.name} (${error.code}): ${error.message}`
  }
}
