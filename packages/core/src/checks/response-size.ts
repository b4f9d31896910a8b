import { requireCount } from './transport-options.js'

/**
 * Returns `value` when it is a usable body size cap: a positive integer number of bytes.
 *
 * Apart from the other transport checks (transport-options.ts), which `new Client` runs: only
 * the requests, loaded on demand, read a body size cap.
 *
 * @throws ConfigurationError on `maxResponseBytes`.
 * @internal
 */
export function requireMaxResponseBytes(value: unknown): number {
  return requireCount(value, 'maxResponseBytes', Number.MAX_SAFE_INTEGER, 'bytes')
}
