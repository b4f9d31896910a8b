import { type Clock, ConfigurationError, type JwsSigner } from '@fhir-auth/core/essentials'
import { readOptions, requireNonBlankString } from '@fhir-auth/core/internal'
import { jsonValueProblem } from './json-value.js'
import { requireAbsoluteUrl, requirePlainObject } from './option-checks.js'
import { signUdapJwt } from './signed-jwt.js'

/** Options of {@link createAuthenticationToken}. */
export interface CreateAuthenticationTokenOptions {
  /**
   * `iss` and `sub`: the `client_id` from registration, or — in the unregistered-client flow,
   * where the certificate alone identifies the client — the client URI.
   */
  readonly issuer: string
  /** `aud`: the signed `token_endpoint`, exactly as published. */
  readonly tokenEndpoint: string
  /** From `prepareUdapSigner`: signs with the leaf key and carries the chain for `x5c`. */
  readonly signer: JwsSigner
  readonly now?: Clock | undefined
  /** Authorization extension objects by key, e.g. `{ 'hl7-b2b': buildB2bExtension(…) }`. */
  readonly extensions?: Readonly<Record<string, unknown>> | undefined
}

/**
 * Creates a UDAP Authentication Token (the `client_assertion` of a token request): header
 * `alg` and `x5c` (standard base64 DER, leaf first) only; claims `iss = sub = issuer`,
 * `aud = tokenEndpoint`, `iat`, `exp = iat + 300`, a fresh `jti`, and `extensions` when given
 * with at least one member (an empty object is left out).
 *
 * > [!WARNING]
 * > The token authenticates the client for five minutes: do not log it.
 *
 * @throws ConfigurationError `issuer`, `tokenEndpoint`, `signer` or `extensions` (must be an
 *   object of JSON values).
 * @throws CryptoError `invalid-signature` when the signer fails.
 * @example
 * ```ts
 * const clientAssertion = await createAuthenticationToken({
 *   issuer: clientId,
 *   tokenEndpoint: metadata.tokenEndpoint,
 *   signer,
 *   extensions: { 'hl7-b2b': buildB2bExtension(context) },
 * })
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#constructing-authentication-token
 * @see https://www.udap.org/udap-jwt-client-auth.html
 */
export async function createAuthenticationToken(
  input: CreateAuthenticationTokenOptions,
): Promise<string> {
  const options = readOptions(input, 'createAuthenticationToken', { required: true })
  const issuer = requireNonBlankString(options.issuer, 'issuer')
  const tokenEndpoint = requireAbsoluteUrl(options.tokenEndpoint, 'tokenEndpoint')
  const extensions = checkExtensions(options.extensions)
  // IG STU2: `extensions` is an object holding one or more extensions; an empty one asserts
  // nothing, so the claim is left out rather than sent empty.
  const hasExtensions = extensions !== undefined && Object.keys(extensions).length > 0
  return signUdapJwt({
    signer: options.signer as JwsSigner,
    issuer,
    audience: tokenEndpoint,
    claims: hasExtensions ? { extensions } : {},
    now: options.now,
  })
}

function checkExtensions(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined
  const extensions = requirePlainObject(value, 'extensions')
  const problem = jsonValueProblem(extensions)
  if (problem !== undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'extensions',
      message: `extensions must hold JSON values only; it ${problem}`,
    })
  }
  return extensions
}
