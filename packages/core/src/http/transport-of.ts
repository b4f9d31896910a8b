import type { TransportOptions } from './transport.js'

/**
 * The transport settings of an options object, and nothing else: flow options also hold
 * codes, secrets and signers, which have no business in the request description. A module of
 * its own: only the requests (loaded on demand) use it, and the argument checks it sat with load
 * up front.
 *
 * @internal
 */
export function transportOf(options: TransportOptions): TransportOptions {
  const { fetch, timeoutMs, signal, allowInsecureLocalhost, maxResponseBytes, logger } = options
  return { fetch, timeoutMs, signal, allowInsecureLocalhost, maxResponseBytes, logger }
}
