import { StoreError } from '../../errors/store-error.js'
import { safeUrl } from '../../http/safe-url.js'
import type { Logger } from '../../logging/logger.js'
import type { KeyValueStore } from '../../stores/key-value-store.js'

/**
 * The revocation cache as the sources use it: where their documents are kept, and the logger
 * told when it fails. No logger: failures are not reported (they still never decide anything).
 */
export interface RevocationCacheAccess {
  readonly cache: KeyValueStore
  readonly logger?: Logger | undefined
}

/**
 * The value kept under `key` for the document at `url` (a CRL, an OCSP answer, `caIssuers`
 * certificates), or `undefined`. A store that fails or does not answer in time is a miss, logged
 * once as `revocation.cache-read-failed`: the document is then fetched and verified like any
 * other, so a cache outage costs fetches, never a verdict (what is read is judged again anyway;
 * a failed read can only lead to a fetch, never to an answer without a verified document).
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.3
 */
export async function readKept(
  access: RevocationCacheAccess,
  key: string,
  url: string,
  what: string,
): Promise<unknown> {
  try {
    return await access.cache.get(key)
  } catch (error) {
    report(access, 'read', url, error, `reading the kept ${what} failed; it is fetched`)
    return undefined
  }
}

/**
 * Keeps `value` under `key` for `ttlSeconds`. A store that fails or does not answer in time (a
 * browser store over quota for a large CRL, a Redis at `maxmemory` with `noeviction`) is logged
 * once as `revocation.cache-write-failed`, and the document just fetched and verified is still
 * used for the validation at hand: only keeping it failed.
 */
export async function keepValue(
  access: RevocationCacheAccess,
  key: string,
  url: string,
  what: string,
  value: string,
  ttlSeconds: number,
): Promise<void> {
  try {
    await access.cache.set(key, value, ttlSeconds)
  } catch (error) {
    report(access, 'write', url, error, `keeping the ${what} failed; it is used, not kept`)
  }
}

function report(
  access: RevocationCacheAccess,
  operation: 'read' | 'write',
  url: string,
  error: unknown,
  outcome: string,
): void {
  const where = safeUrl(url)
  const reason = storeFailure(error)
  access.logger?.warn(`revocation cache: ${outcome} (${where}: ${reason})`, {
    event: `revocation.cache-${operation}-failed`,
    url: where,
    reason,
  })
}

/**
 * Why the store failed, safe to log: a `StoreError`'s reason and message (which never carry the
 * value), else only the error's name, since another error's message may quote what was stored.
 */
function storeFailure(error: unknown): string {
  if (StoreError.isInstance(error)) return `${error.reason}: ${error.message}`
  return error instanceof Error ? error.name : 'failure'
}
