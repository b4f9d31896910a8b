/** The UDAP limit on JWTs a client signs: `exp` at most 300 s after `iat` (IG STU2 §4.2.1). */
export const maximumClientJwtLifetimeSeconds = 300

/**
 * The claim rule a client-signed JWT broke: `iat` (missing, not a number, in the future), `exp`
 * (missing, not a number, not after `iat`), `lifetime` (more than 300 s), `expired` (`exp`
 * passed), and the rest by claim name.
 */
export type ClientJwtClaimRule =
  | 'iss'
  | 'sub'
  | 'aud'
  | 'iat'
  | 'exp'
  | 'lifetime'
  | 'expired'
  | 'jti'

/** A broken claim rule and its description (which never repeats the token). */
export interface ClaimProblem {
  readonly rule: ClientJwtClaimRule
  readonly message: string
}

/** What the time and audience checks of a client-signed JWT compare against. */
export interface ClientJwtExpectations {
  /** The endpoint URL the JWT must be addressed to (`aud`), exactly as advertised. */
  readonly audience: string
  readonly now: Date
  /** Leeway for clocks: `iat` may be this far in the future, `exp` this far in the past. */
  readonly toleranceSeconds: number
}

/**
 * Checks the registered claims every client-signed UDAP JWT carries (software statement and
 * authentication token): `iss` a non-empty string and `sub` equal to it, `aud` the endpoint
 * (a string, or an array containing it), numeric `iat` not in the future, `exp` after `iat`, not
 * passed, and at most {@link maximumClientJwtLifetimeSeconds} after `iat`; `jti` non-empty.
 *
 * @returns the first rule broken, or `undefined` when all hold.
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#software-statement
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#constructing-authentication-token
 */
export function checkClientJwtClaims(
  claims: Readonly<Record<string, unknown>>,
  expected: ClientJwtExpectations,
): ClaimProblem | undefined {
  const { iss, sub, aud, iat, exp, jti } = claims
  if (typeof iss !== 'string' || iss === '') return broken('iss', 'iss is missing')
  if (sub !== iss) return broken('sub', 'sub does not equal iss')
  const audiences = Array.isArray(aud) ? aud : [aud]
  if (!audiences.includes(expected.audience)) {
    return broken('aud', `aud does not name ${expected.audience}`)
  }
  if (!isNumericDate(iat)) return broken('iat', 'iat is missing or not a number')
  if (!isNumericDate(exp)) return broken('exp', 'exp is missing or not a number')
  const nowSeconds = expected.now.getTime() / 1000
  if (iat > nowSeconds + expected.toleranceSeconds) return broken('iat', 'iat is in the future')
  if (exp <= iat) return broken('exp', 'exp is not after iat')
  if (exp - iat > maximumClientJwtLifetimeSeconds) {
    return broken('lifetime', `exp is more than ${maximumClientJwtLifetimeSeconds} s after iat`)
  }
  if (exp < nowSeconds - expected.toleranceSeconds) {
    return broken('expired', 'exp has passed (the JWT expired)')
  }
  if (typeof jti !== 'string' || jti === '') return broken('jti', 'jti is missing')
  return undefined
}

function broken(rule: ClientJwtClaimRule, message: string): ClaimProblem {
  return { rule, message }
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}
