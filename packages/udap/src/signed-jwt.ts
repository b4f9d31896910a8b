import {
  base64Encode,
  type Clock,
  ConfigurationError,
  epochSeconds,
  generateJti,
  type JsonObject,
  type JwsSigner,
} from '@fhir-auth/core/essentials'
import { currentTime, requireSigner } from '@fhir-auth/core/internal/on-demand'
import { signCompactJws } from '@fhir-auth/core/jws'

/**
 * Lifetime of the JWTs a UDAP client signs: software statements and authentication tokens
 * SHALL expire no more than 5 minutes after `iat`.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#software-statement
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#constructing-authentication-token
 */
export const udapJwtLifetimeSeconds = 300

/** What {@link signUdapJwt} needs. */
export interface UdapJwtInput {
  readonly signer: JwsSigner
  /** `iss` and `sub`: the client URI or the `client_id`. */
  readonly issuer: string
  /** `aud`: the registration or token endpoint, exactly as the server published it. */
  readonly audience: string
  /** Claims added before the registered ones; the registered ones always win. */
  readonly claims: JsonObject
  readonly now?: Clock | undefined
}

/**
 * Signs a UDAP client JWT: header `alg` (the signer's) and `x5c` (the signer's chain as
 * standard base64 DER, leaf first) only; claims `iss = sub = issuer`, `aud`, `iat`,
 * `exp = iat + 300`, a fresh `jti` (256 random bits), plus the given claims.
 *
 * @throws ConfigurationError `signer` when it is not a signer or has no certificate chain.
 * @throws CryptoError `invalid-signature` when the signer fails.
 * @internal
 */
export async function signUdapJwt(input: UdapJwtInput): Promise<string> {
  const signer = requireSigner(input.signer)
  const chain = signer.certificateChain
  if (
    !Array.isArray(chain) ||
    chain.length === 0 ||
    !chain.every((der) => der instanceof Uint8Array)
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'signer',
      message:
        'the signer has no certificateChain: UDAP JWTs carry the client certificate chain in x5c (use prepareUdapSigner)',
    })
  }
  const issuedAt = epochSeconds(currentTime(input.now))
  const header = { x5c: chain.map((der) => base64Encode(der)) }
  const claims = {
    ...input.claims,
    iss: input.issuer,
    sub: input.issuer,
    aud: input.audience,
    iat: issuedAt,
    exp: issuedAt + udapJwtLifetimeSeconds,
    jti: generateJti(),
  }
  return signCompactJws(header, claims, signer)
}
