import { describeError } from './transport-failure.js'

/**
 * Keeps only a transport error's name and code: a custom `fetch` may quote the request — and so
 * its body, with codes, verifiers, assertions or secrets — in its message or attach it to the error.
 * Apart from `networkCause` (transport-failure.ts), which a failed load of code on demand reads
 * up front: only the requests, loaded on demand, keep a cause.
 *
 * @internal
 */
export function sanitizeCause(error: unknown): Error {
  const { name, code } = describeError(error)
  const copy = new Error(code === undefined ? name : `${name} (${code})`)
  copy.name = name
  if (code !== undefined) Object.defineProperty(copy, 'code', { value: code, enumerable: true })
  return copy
}
