/**
 * What kind of value a rejected argument is, for an error message: "null", "undefined",
 * "an array", "a blank string", "an object", "a number"… Never the value itself, which may be a
 * secret.
 *
 * @internal
 */
export function describeKind(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string' && value.trim() === '') return 'a blank string'
  if (typeof value !== 'object') return value === undefined ? 'undefined' : `a ${typeof value}`
  try {
    return Array.isArray(value) ? 'an array' : 'an object'
  } catch {
    // A revoked Proxy throws even on Array.isArray.
    return 'an object'
  }
}
