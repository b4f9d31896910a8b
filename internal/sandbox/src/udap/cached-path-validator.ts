import type * as pkijs from 'pkijs'
import { BoundedCache } from './bounded-cache.js'
import {
  type ParsedTrustStore,
  type PathValidationResult,
  validateCertificatePath,
} from './certificate-path-validation.js'

/** How long a successful validation is reused at most. */
const reuseLimitMs = 60_000

interface CachedValidation {
  readonly trust: ParsedTrustStore
  readonly validatedAtMs: number
  readonly reusableUntilMs: number
}

/**
 * {@link validateCertificatePath} with a short memory of successes, so that a client sending the
 * same `x5c` on every token request does not pay for path building and CRL signatures each
 * time (pkijs takes several milliseconds per chain).
 *
 * A success is reused only with the very same trust store object (a revocation re-issues a CRL
 * and so produces a new one), for times from the original validation up to the earliest of:
 * 60 s later, any chain certificate's `notAfter`, any CRL's `nextUpdate`. Within that window
 * nothing the validation depended on can change. Failures are never cached.
 */
export class CachedPathValidator {
  readonly #successes = new BoundedCache<string, CachedValidation>(1000)

  /**
   * Validates `chain` (leaf first, with its DER as the cache key) against `trust` at `at`; see
   * {@link validateCertificatePath}.
   */
  async validate(
    chain: readonly pkijs.Certificate[],
    chainDer: readonly Uint8Array[],
    trust: ParsedTrustStore,
    at: Date,
  ): Promise<PathValidationResult> {
    const key = chainDer.map((der) => Buffer.from(der).toString('base64')).join('.')
    const atMs = at.getTime()
    const cached = this.#successes.get(key)
    if (
      cached !== undefined &&
      cached.trust === trust &&
      atMs >= cached.validatedAtMs &&
      atMs < cached.reusableUntilMs
    ) {
      return { valid: true }
    }
    const result = await validateCertificatePath(chain, trust, at)
    if (result.valid) {
      const deadlines = [
        atMs + reuseLimitMs,
        ...chain.map((certificate) => certificate.notAfter.value.getTime()),
        ...trust.crls.map((crl) => crl.nextUpdate?.value.getTime() ?? atMs),
      ]
      this.#successes.set(key, {
        trust,
        validatedAtMs: atMs,
        reusableUntilMs: Math.min(...deadlines),
      })
    }
    return result
  }
}
