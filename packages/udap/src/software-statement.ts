import type { Clock, JwsSigner } from '@fhir-auth/core/essentials'
import { readOptions } from '@fhir-auth/core/internal'
import { requireAbsoluteUri, requireAbsoluteUrl, requirePlainObject } from './option-checks.js'
import type { RegistrationClaims } from './registration-metadata.js'
import { signUdapJwt } from './signed-jwt.js'

/** Options of {@link createSoftwareStatement}. */
export interface CreateSoftwareStatementOptions {
  /** From {@link normalizeRegistrationMetadata}. */
  readonly claims: RegistrationClaims
  /** `iss` and `sub`: a URI SAN of the signing certificate (checked by `prepareUdapSigner`). */
  readonly clientUri: string
  /** `aud`: the signed `registration_endpoint`, exactly as published. */
  readonly registrationEndpoint: string
  /** From `prepareUdapSigner`: signs with the leaf key and carries the chain for `x5c`. */
  readonly signer: JwsSigner
  readonly now?: Clock | undefined
}

/**
 * Creates a UDAP software statement: a JWT with header `alg` and `x5c` (standard base64 DER,
 * leaf first) only, and claims `iss = sub = clientUri`, `aud = registrationEndpoint`, `iat`,
 * `exp = iat + 300`, a fresh `jti`, plus the registration claims.
 *
 * Registration claims cannot override the registered ones: `normalizeRegistrationMetadata`
 * refuses them, and here the registered claims are written last.
 *
 * > [!WARNING]
 * > The statement is a signed assertion: do not log it.
 *
 * @throws ConfigurationError `clientUri`, `registrationEndpoint`, `claims` or `signer`.
 * @throws CryptoError `invalid-signature` when the signer fails.
 * @example
 * ```ts
 * const softwareStatement = await createSoftwareStatement({
 *   claims,
 *   clientUri: 'https://client.example.org/app',
 *   registrationEndpoint: metadata.registrationEndpoint,
 *   signer,
 * })
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#software-statement
 */
export async function createSoftwareStatement(
  input: CreateSoftwareStatementOptions,
): Promise<string> {
  const options = readOptions(input, 'createSoftwareStatement', { required: true })
  const clientUri = requireAbsoluteUri(options.clientUri, 'clientUri')
  const registrationEndpoint = requireAbsoluteUrl(
    options.registrationEndpoint,
    'registrationEndpoint',
  )
  const claims = requirePlainObject(options.claims, 'claims')
  return signUdapJwt({
    signer: options.signer as JwsSigner,
    issuer: clientUri,
    audience: registrationEndpoint,
    claims: { ...claims },
    now: options.now,
  })
}
