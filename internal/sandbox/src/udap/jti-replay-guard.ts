/**
 * Remembers `jti` values per issuer until their JWT expires, to refuse a JWT that is presented
 * twice: IG STU2 §7.1.4 forbids reusing a `jti` with the same `iss` before the earlier JWT
 * expires.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html#jwt-requirements
 */
export class JtiReplayGuard {
  /** issuer → jti → expiry (epoch seconds). */
  readonly #seen = new Map<string, Map<string, number>>()

  /**
   * Records `jti` for `issuer` and says whether it was fresh. Entries whose JWT expired are
   * dropped first, so memory stays bounded by the JWTs still valid.
   *
   * @returns `false` when the same issuer already used this `jti` in a JWT that is still valid.
   */
  accept(issuer: string, jti: string, expiresAtSeconds: number, nowSeconds: number): boolean {
    const forIssuer = this.#seen.get(issuer) ?? new Map<string, number>()
    for (const [seenJti, expiry] of forIssuer) {
      if (expiry < nowSeconds) forIssuer.delete(seenJti)
    }
    if (forIssuer.has(jti)) return false
    forIssuer.set(jti, expiresAtSeconds)
    this.#seen.set(issuer, forIssuer)
    return true
  }
}
