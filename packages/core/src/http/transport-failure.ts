/**
 * How a failed `fetch` is described without carrying anything the request held: the error's
 * name and code in words for a message, and a copy with only those two as a `cause`. Shared by
 * the library's own requests and by `session.fetch`, whose `fetch` may be the caller's.
 */

import { networkCodeMeanings } from '#network-code-meanings'

/**
 * The name and code of a transport error (`TypeError`, `ECONNREFUSED`…), read defensively: a
 * hostile `fetch` may throw anything, with getters that throw. Only name- and code-shaped strings
 * are kept, so nothing carrying request data can travel on.
 *
 * @internal
 */
export function describeError(error: unknown): { name: string; code: string | undefined } {
  try {
    const record = error as { name?: unknown; code?: unknown; cause?: { code?: unknown } }
    const name =
      error instanceof Error && /^[A-Za-z]{1,40}$/.test(String(record.name))
        ? String(record.name)
        : 'Error'
    const code = record.code ?? record.cause?.code
    return {
      name,
      code: typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,39}$/.test(code) ? code : undefined,
    }
  } catch {
    return { name: 'Error', code: undefined }
  }
}

/**
 * The transport failure in words, with its code: `the host name could not be resolved (ENOTFOUND)`.
 *
 * @internal
 */
export function networkCause(error: unknown): string {
  const { name, code } = describeError(error)
  if (code !== undefined) {
    const meaning = networkCodeMeanings[code]
    return meaning === undefined ? code : `${meaning} (${code})`
  }
  return name === 'TypeError' || name === 'Error' ? 'network error' : name
}
