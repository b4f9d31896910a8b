/**
 * True for `{}`-style objects: prototype `Object.prototype` or `null` (not arrays, class
 * instances, `Map`s or dates).
 *
 * @internal
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  try {
    if (Array.isArray(value)) return false
    const prototype: unknown = Object.getPrototypeOf(value)
    return prototype === Object.prototype || prototype === null
  } catch {
    // A Proxy whose traps throw is not a plain object.
    return false
  }
}
