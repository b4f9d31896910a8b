import type { CachedPathValidator } from './cached-path-validator.js'
import { subjectAlternativeNameUris } from './certificate-names.js'
import type { ParsedTrustStore } from './certificate-path-validation.js'
import type { JtiReplayGuard } from './jti-replay-guard.js'
import {
  type ClientJwtClaimRule,
  type ClientJwtExpectations,
  checkClientJwtClaims,
} from './jwt-claim-rules.js'
import { type VerifiedX5cJwt, verifyX5cSignedJwt, type X5cJwtRule } from './x5c-signed-jwt.js'

/** Which check a client JWT failed: the JWS itself, the certificate trust, or the claims. */
export type ClientJwtFailureStage = 'signature' | 'trust' | 'claims'

/**
 * The rule a client JWT broke: a JWS rule, `trust` (no valid path with current CRLs), a claim
 * rule, or `jti-replay` (the same `iss` used this `jti` in a JWT that is still valid).
 */
export type ClientJwtRule = X5cJwtRule | 'trust' | ClientJwtClaimRule | 'jti-replay'

/** A client JWT that passed every common check. */
export interface VerifiedClientJwt extends VerifiedX5cJwt {
  /** `iss` (= `sub`). */
  readonly issuer: string
  /** The SAN URIs of `x5c[0]`. */
  readonly sanUris: readonly string[]
}

/** The outcome of {@link verifyClientJwt}. */
export type ClientJwtResult =
  | { readonly valid: true; readonly jwt: VerifiedClientJwt }
  | {
      readonly valid: false
      readonly stage: ClientJwtFailureStage
      readonly rule: ClientJwtRule
      readonly message: string
    }

/** Inputs of {@link verifyClientJwt}. */
export interface ClientJwtRules extends ClientJwtExpectations {
  readonly algorithms: readonly string[]
  readonly trust: ParsedTrustStore
  readonly pathValidator: CachedPathValidator
  readonly replayGuard: JtiReplayGuard
}

/**
 * The checks a UDAP server applies to every JWT a client signs (software statement and
 * authentication token), in this order: JWS signature by `x5c[0]` with an advertised `alg`;
 * the `x5c` chain to a trust anchor at the current time with current CRLs; the registered
 * claims (`iss`, `sub`, `aud`, `iat`, `exp`, `jti`); `jti` not replayed by the same `iss`.
 * The `jti` is remembered only when everything before it passed.
 *
 * @see https://www.udap.org/udap-dynamic-client-registration.html (§4)
 * @see https://www.udap.org/udap-jwt-client-auth.html (§6)
 */
export async function verifyClientJwt(
  token: string,
  rules: ClientJwtRules,
): Promise<ClientJwtResult> {
  const signature = await verifyX5cSignedJwt(token, rules.algorithms)
  if (!signature.verified) {
    return { valid: false, stage: 'signature', rule: signature.rule, message: signature.message }
  }
  const { jwt } = signature
  const path = await rules.pathValidator.validate(jwt.chain, jwt.chainDer, rules.trust, rules.now)
  if (!path.valid) return { valid: false, stage: 'trust', rule: 'trust', message: path.message }
  const problem = checkClientJwtClaims(jwt.claims, rules)
  if (problem !== undefined) {
    return { valid: false, stage: 'claims', rule: problem.rule, message: problem.message }
  }
  const issuer = jwt.claims.iss as string
  const expiresAt = (jwt.claims.exp as number) + rules.toleranceSeconds
  if (
    !rules.replayGuard.accept(
      issuer,
      jwt.claims.jti as string,
      expiresAt,
      rules.now.getTime() / 1000,
    )
  ) {
    return {
      valid: false,
      stage: 'claims',
      rule: 'jti-replay',
      message: 'jti was already used by this iss (replay)',
    }
  }
  const leaf = jwt.chain[0]
  const sanUris = leaf === undefined ? [] : subjectAlternativeNameUris(leaf)
  return { valid: true, jwt: { ...jwt, issuer, sanUris } }
}
