/**
 * What kind of value a rejected argument is, for an error message: "null", "an array",
 * "a blank string", "an object", "a number"… Never the value itself, which may be a secret.
 *
 * @internal
 */
export function describeKind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string' && value.trim() === '') return 'a blank string'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
