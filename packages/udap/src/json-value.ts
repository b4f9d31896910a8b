import { isPlainObject } from '@fhir-auth/core/internal/on-demand'

/** How deep a caller-supplied JSON value may nest; deeper values are refused, not truncated. */
const maxDepth = 32

/**
 * Why `value` cannot be sent as JSON unchanged, or `undefined` when it can: only strings,
 * finite numbers, booleans, `null`, arrays and plain objects, without cycles, at most
 * {@link maxDepth} levels deep. `JSON.stringify` would silently drop functions and
 * `undefined`, turn `NaN` into `null` and class instances into something else, so a signed
 * claim would differ from what the caller wrote.
 *
 * @internal
 */
export function jsonValueProblem(value: unknown, depth = 0): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : 'contains a non-finite number'
  }
  if (typeof value !== 'object') return `contains a ${typeof value}`
  if (depth >= maxDepth) return `nests deeper than ${maxDepth} levels (or contains a cycle)`
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = jsonValueProblem(item, depth + 1)
      if (problem !== undefined) return problem
    }
    return undefined
  }
  if (!isPlainObject(value)) return 'contains an object that is not a plain object'
  for (const member of Object.values(value)) {
    const problem = jsonValueProblem(member, depth + 1)
    if (problem !== undefined) return problem
  }
  return undefined
}

/**
 * A deep copy of a JSON value with every array and object frozen, so a value the library
 * checked cannot change afterwards through a reference the caller kept.
 *
 * @internal
 */
export function frozenJsonCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value
  // Iterative, not recursive: a server document may nest deeper than the call stack allows.
  const root: unknown[] | Record<string, unknown> = Array.isArray(value) ? [] : {}
  const pending: [object, unknown[] | Record<string, unknown>][] = [[value, root]]
  const copies: object[] = []
  for (let entry = pending.pop(); entry !== undefined; entry = pending.pop()) {
    const [source, target] = entry
    copies.push(target)
    for (const [name, member] of Object.entries(source)) {
      let copy: unknown = member
      if (typeof member === 'object' && member !== null) {
        copy = Array.isArray(member) ? [] : {}
        pending.push([member, copy as unknown[] | Record<string, unknown>])
      }
      if (Array.isArray(target)) target.push(copy)
      else setMember(target, name, copy)
    }
  }
  // Frozen only once filled: a frozen array or object could not take its members.
  for (const copy of copies) Object.freeze(copy)
  return root as T
}

/**
 * Sets an own, enumerable member. Plain assignment of a member named `__proto__` (which
 * `JSON.parse` produces as an ordinary member) would replace the object's prototype instead.
 *
 * @internal
 */
export function setMember(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
}
