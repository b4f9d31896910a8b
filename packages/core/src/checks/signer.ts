import { isJwsSigner, type JwsSigner } from '../crypto/signer.js'
import { ConfigurationError } from '../errors/configuration-error.js'

/**
 * Returns `value` when it is a {@link JwsSigner} (an `alg` and a `sign` function).
 *
 * @throws ConfigurationError on `signer`.
 * @internal
 */
export function requireSigner(value: unknown): JwsSigner {
  if (isJwsSigner(value)) return value
  throw new ConfigurationError({
    invalidAttribute: 'signer',
    message: 'signer must be a JwsSigner (an alg and a sign function)',
  })
}
