/** What the provider hands to the assertion hook, after it verified the signature. */
export interface VerifiedAssertion {
  readonly claims: Readonly<Record<string, unknown>>
  readonly header: Readonly<Record<string, unknown>>
  readonly clientId: string
  /** The client's registered JWKS URL, when it registered one. */
  readonly jwksUri: string | undefined
  /** The route the assertion was sent to (`token`, `introspection`, `revocation`). */
  readonly route: string | undefined
}

/** Settings of {@link smartAssertionProblem}. */
export interface AssertionRuleSettings {
  readonly tokenEndpoint: string
  readonly clockToleranceSeconds: number
  readonly nowSeconds: number
}

/** SMART: `exp` no more than five minutes in the future. */
const maximumAssertionLifetimeSeconds = 300

/**
 * Checks the SMART rules for a `private_key_jwt` client assertion that oidc-provider does not
 * check itself, and returns the first broken rule (or `undefined`). The provider already
 * verified the signature, `alg`, `iss` = client_id, `exp` in the future, the presence of `jti`
 * and `aud`, and it rejects a replayed `jti` afterwards.
 *
 * - header `typ` is `JWT` and `kid` is present;
 * - `jku`, when present, equals the registered `jwks_uri`;
 * - `sub` equals the client_id;
 * - at the token endpoint, `aud` is exactly the token endpoint URL (the provider would also
 *   accept the issuer);
 * - `exp` is at most five minutes ahead.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html#authenticating-to-the-token-endpoint
 */
export function smartAssertionProblem(
  assertion: VerifiedAssertion,
  settings: AssertionRuleSettings,
): string | undefined {
  const { claims, header } = assertion
  if (header.typ !== 'JWT') return 'the client assertion header typ must be "JWT"'
  if (typeof header.kid !== 'string' || header.kid === '') {
    return 'the client assertion header needs a kid'
  }
  if (header.jku !== undefined && header.jku !== assertion.jwksUri) {
    return 'the client assertion jku must equal the registered jwks_uri'
  }
  if (claims.sub !== assertion.clientId) return 'the client assertion sub must be the client_id'
  if (assertion.route === 'token' && claims.aud !== settings.tokenEndpoint) {
    return 'the client assertion aud must be the token endpoint URL'
  }
  const expiry = claims.exp
  if (
    typeof expiry !== 'number' ||
    expiry > settings.nowSeconds + maximumAssertionLifetimeSeconds + settings.clockToleranceSeconds
  ) {
    return 'the client assertion exp must be at most five minutes ahead'
  }
  return undefined
}
