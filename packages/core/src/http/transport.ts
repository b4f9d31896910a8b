import type { Logger } from '../logging/logger.js'

// Apart from `request.ts` so that code loaded up front can name the defaults and the types
// without loading the request path itself (ADR 0012).
/**
 * The `fetch` the library calls: narrower than `typeof fetch`, so wrappers (undici, ky, a test
 * double) fit. Defaults to `globalThis.fetch`, looked up at call time.
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

/** Default time limit for one request, redirects and body included: 10 seconds. */
export const defaultTimeoutMs = 10_000

/** Default cap on a response body: 1 MiB. Larger bodies fail with `too-large`. */
export const defaultMaxResponseBytes = 1_048_576

/** Transport settings every request accepts. */
export interface TransportOptions {
  readonly fetch?: FetchLike | undefined
  /**
   * Time limit in milliseconds, default {@link defaultTimeoutMs}: an integer from 1 to
   * 2 147 483 647 (the longest delay `setTimeout` takes).
   */
  readonly timeoutMs?: number | undefined
  /** The caller's cancellation (an `AbortSignal`); combined with the timeout. */
  readonly signal?: AbortSignal | undefined
  /** Permit HTTP to loopback hosts (development only). */
  readonly allowInsecureLocalhost?: boolean | undefined
  /** Body size cap in bytes (a positive integer), default {@link defaultMaxResponseBytes}. */
  readonly maxResponseBytes?: number | undefined
  /**
   * Where a warning goes when a server's answer deviates from the spec in a way the library
   * tolerates (a discovery document served as `text/plain`, `token_type: "bearer"`…); no
   * warnings when absent. A `Client` passes its own logger.
   */
  readonly logger?: Logger | undefined
}
