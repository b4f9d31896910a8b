/**
 * Ways to make UDAP discovery wrong in exactly one respect, for a client's negative tests.
 * Each one breaks a single rule of IG STU2 §2.3 / udap.org Server Metadata §3; everything else
 * about the response stays conformant, so a client that accepts it has missed that rule.
 *
 * CRL problems (stale, bad signature, missing) are not variants of the response: they are the
 * CRL sets in `sandbox.trust.crlVariants`.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 */
export const hostileDiscoveryVariants = [
  /** `signed_metadata` header `alg: "none"` and an empty signature. */
  'alg-none',
  /** HS256, keyed with the server certificate's public key PEM (the classic confusion attack). */
  'alg-hs256',
  /** RS384 by the right key: valid JOSE, but the IG pins RS256 for signed metadata. */
  'alg-rs384',
  /** Signed by an RSA key that is not the key of `x5c[0]`. */
  'wrong-signing-key',
  /** `x5c` lists the intermediate first and the signing leaf second. */
  'x5c-out-of-order',
  /** The server certificate's SAN URI is another URL (`…/other-fhir`); `iss` is the base URL. */
  'san-other-url',
  /** The server certificate's SAN URI differs from the base URL only in case (upper-case path). */
  'san-case-differs',
  /** The server certificate's SAN URI is the base URL plus a trailing slash. */
  'san-trailing-slash',
  /** The server certificate chains to a root that is not in `sandbox.trust.anchors`. */
  'untrusted-root',
  /** The server certificate is listed in its issuer's (current) CRL. */
  'revoked-leaf',
  /** The server certificate's intermediate is listed in the root's (current) CRL. */
  'revoked-intermediate',
  /** The server certificate expired yesterday. */
  'expired-leaf',
  /** The server certificate becomes valid tomorrow. */
  'not-yet-valid-leaf',
  /** The server certificate's intermediate has a keyUsage without keyCertSign. */
  'ca-without-key-cert-sign',
  /** The server certificate's keyUsage is keyEncipherment only (no digitalSignature). */
  'leaf-without-digital-signature',
  /** The server certificate's intermediate has a keyUsage without cRLSign and signs its CRL. */
  'crl-issuer-without-crl-sign',
  /** The server certificate sits below a sub-CA below an intermediate with pathLenConstraint 0. */
  'path-length-exceeded',
  /** The server certificate's SAN URI is outside its intermediate's permitted URI subtree. */
  'name-constraints-violated',
  /** The server certificate has a critical private extension nobody understands. */
  'unknown-critical-extension',
  /** `exp` is more than one year after `iat`. */
  'exp-beyond-one-year',
  /** `exp` (and `iat`) lie in the past. */
  'exp-in-past',
  /** No `jti` claim. */
  'missing-jti',
  /** `sub` differs from `iss`. */
  'sub-differs',
  /**
   * `iss` = `sub` = the SAN URI of the signing certificate, but that URI is not the base URL
   * the client asked (`…/other-fhir`).
   */
  'iss-differs-from-base-url',
  /**
   * Token and registration endpoints (signed and unsigned) use plain `http:` on a host that is
   * not loopback (with an `https:` `publicOrigin`, only the scheme changes).
   */
  'http-endpoints',
] as const

/** One of {@link hostileDiscoveryVariants}. */
export type HostileDiscoveryVariant = (typeof hostileDiscoveryVariants)[number]

/** Whether `value` names a {@link HostileDiscoveryVariant}. */
export function isHostileDiscoveryVariant(value: unknown): value is HostileDiscoveryVariant {
  return (hostileDiscoveryVariants as readonly unknown[]).includes(value)
}

/** Variants that swap the server certificate (the rest change the JWS or its claims). */
export const certificateVariants = [
  'san-other-url',
  'san-case-differs',
  'san-trailing-slash',
  'untrusted-root',
  'revoked-leaf',
  'revoked-intermediate',
  'expired-leaf',
  'not-yet-valid-leaf',
  'ca-without-key-cert-sign',
  'leaf-without-digital-signature',
  'crl-issuer-without-crl-sign',
  'path-length-exceeded',
  'name-constraints-violated',
  'unknown-critical-extension',
  'iss-differs-from-base-url',
] as const satisfies readonly HostileDiscoveryVariant[]

/** One of {@link certificateVariants}. */
export type CertificateVariant = (typeof certificateVariants)[number]

/** Whether `variant` swaps the server certificate. */
export function isCertificateVariant(
  variant: HostileDiscoveryVariant,
): variant is CertificateVariant {
  return (certificateVariants as readonly string[]).includes(variant)
}

/**
 * Ways to make the authorization-code flow wrong in exactly one respect, for a client's (or a
 * data holder's) negative tests. They change what this sandbox sends, never what it accepts.
 * Unlike {@link hostileDiscoveryVariants}, a conformant client does not refuse discovery for
 * them: it must notice them later (or, for the unsigned endpoint, never be misled).
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html#the-state-parameter
 * @see https://hl7.org/fhir/us/udap-security/STU2/user.html
 */
export const hostileAuthorizationVariants = [
  /**
   * Discovery's unsigned `authorization_endpoint` differs from the signed one (it points to
   * `/unsigned-authorize`, which refuses every request and counts in `requestCounts.other`);
   * the signed claim stays right. A client must authorize at the signed one (IG STU2 §2.3:
   * signed values take precedence), so this is no reason to refuse the metadata. Needs
   * `authorization_code`.
   */
  'unsigned-authorization-endpoint',
  /**
   * Discovery's `signed_metadata` also signs `scopes_supported`, without `udap`, while the plain
   * JSON still lists it: signed values take precedence (IG STU2 §2.3), so a client (or a data
   * holder judging this server as an IdP) must conclude that Tiered OAuth is not offered.
   */
  'signed-scopes-without-udap',
  /** Authorization responses (code or error) carry another `state` than the client sent. */
  'wrong-state',
  /** Authorization responses (code or error) carry no `state`. */
  'missing-state',
  /** ID tokens carry another `nonce` than the authorization request sent (or one when none was). */
  'id-token-wrong-nonce',
  /** ID tokens carry another `aud` than the client's `client_id`. */
  'id-token-wrong-aud',
  /**
   * As a data holder: every Tiered OAuth request (scope `udap` with `idp`) ends with
   * `error=invalid_idp`, as if the IdP were not trusted.
   */
  'invalid-idp',
] as const

/** One of {@link hostileAuthorizationVariants}. */
export type HostileAuthorizationVariant = (typeof hostileAuthorizationVariants)[number]

/** Any hostile variant: discovery or authorization flow. One is active at a time. */
export type HostileVariant = HostileDiscoveryVariant | HostileAuthorizationVariant

/** Every {@link HostileVariant}. */
export const hostileVariants: readonly HostileVariant[] = [
  ...hostileDiscoveryVariants,
  ...hostileAuthorizationVariants,
]

/** Whether `value` names a {@link HostileVariant}. */
export function isHostileVariant(value: unknown): value is HostileVariant {
  return (hostileVariants as readonly unknown[]).includes(value)
}

/** The discovery part of a variant: `undefined` for authorization-flow variants. */
export function discoveryVariantOf(
  variant: HostileVariant | undefined,
): HostileDiscoveryVariant | undefined {
  return variant !== undefined && isHostileDiscoveryVariant(variant) ? variant : undefined
}
