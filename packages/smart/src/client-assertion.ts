import {
  type Clock,
  ConfigurationError,
  epochSeconds,
  generateJti,
  type JwsSigner,
} from '@fhir-auth/core/essentials'
import { readOptions, requireNonBlankString } from '@fhir-auth/core/internal'
import { currentTime, requireSigner } from '@fhir-auth/core/internal/signing'
import { signCompactJws } from '@fhir-auth/core/signing'

/**
 * The `client_assertion_type` of a JWT client assertion (RFC 7523 §2.2); `@fhir-auth/core/jws`'s
 * constant, exported here too for SMART users.
 */
export { jwtBearerAssertionType } from '@fhir-auth/core/signing'

/** The longest lifetime SMART allows: `exp` "no more than five minutes in the future". */
const maxLifetimeSeconds = 300

/** Options of {@link createClientAssertion}. */
export interface ClientAssertionOptions {
  readonly clientId: string
  /** The token endpoint URL the assertion is for; becomes `aud` exactly as given. */
  readonly tokenEndpoint: string
  /** Signs with RS384 or ES384 and carries the registered key's `kid`. */
  readonly signer: JwsSigner
  /** Becomes the `jku` header; must be the JWKS URL registered for the client. */
  readonly jwksUri?: string | undefined
  readonly now?: Clock | undefined
  /** Seconds until `exp`; default and maximum 300. */
  readonly lifetimeSeconds?: number | undefined
}

/**
 * Creates a SMART client assertion (`private_key_jwt`) for one token request.
 *
 * Header: `alg` (the signer's), `typ: "JWT"`, `kid`, and `jku` when `jwksUri` is given.
 * Claims: `iss` = `sub` = client id, `aud` = the token endpoint, `iat`, `exp` = `iat` +
 * min(lifetime, 300 s), and a fresh 256-bit `jti` so the server can refuse replays.
 *
 * @throws ConfigurationError `jwtAlgorithm` when the signer's algorithm is not RS384 or ES384,
 *   `kid` when the signer has none, `signer`, `clientId`, `tokenEndpoint`, `jwksUri` or
 *   `lifetimeSeconds` when unusable.
 * @throws CryptoError `invalid-signature` when the signer fails.
 * @example
 * ```ts
 * const clientAssertion = await createClientAssertion({
 *   clientId: 'my-app',
 *   tokenEndpoint: metadata.tokenEndpoint,
 *   signer, // from a CryptoBackend's importSigner(key, { profile: 'smart', kid })
 * })
 * // form: client_assertion_type=jwtBearerAssertionType, client_assertion=clientAssertion
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html#authenticating-to-the-token-endpoint
 */
export async function createClientAssertion(input: ClientAssertionOptions): Promise<string> {
  const options = readOptions(input, 'createClientAssertion', { required: true })
  const { jwksUri, lifetimeSeconds = maxLifetimeSeconds } = options
  const signer = requireSigner(options.signer)
  if (signer.alg !== 'RS384' && signer.alg !== 'ES384') {
    throw new ConfigurationError({
      invalidAttribute: 'jwtAlgorithm',
      invalidValue: signer.alg,
      validValues: ['RS384', 'ES384'],
      message: `SMART client assertions must be signed with RS384 or ES384, not ${signer.alg}`,
    })
  }
  const kid = requireNonBlankString(signer.kid, 'kid')
  if (jwksUri !== undefined) requireNonBlankString(jwksUri, 'jwksUri')
  if (!(typeof lifetimeSeconds === 'number' && lifetimeSeconds > 0)) {
    throw new ConfigurationError({
      invalidAttribute: 'lifetimeSeconds',
      invalidValue: lifetimeSeconds,
      message: 'lifetimeSeconds must be a positive number',
    })
  }
  const clientId = requireNonBlankString(options.clientId, 'clientId')
  const issuedAt = epochSeconds(currentTime(options.now))
  return signCompactJws(
    jwksUri === undefined
      ? { alg: signer.alg, typ: 'JWT', kid }
      : { alg: signer.alg, typ: 'JWT', kid, jku: jwksUri },
    {
      iss: clientId,
      sub: clientId,
      aud: requireNonBlankString(options.tokenEndpoint, 'tokenEndpoint'),
      iat: issuedAt,
      exp: issuedAt + Math.floor(Math.min(lifetimeSeconds, maxLifetimeSeconds)),
      jti: generateJti(),
    },
    signer,
  )
}
