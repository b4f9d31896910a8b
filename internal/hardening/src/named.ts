import fc from 'fast-check'

/**
 * Gives a value a short name in fast-check's counterexample reports (a crypto backend would
 * otherwise print as the source of all its methods).
 */
export function named<T extends object>(name: string, value: T): T {
  return Object.defineProperty(value, fc.toStringMethod, { value: () => name, enumerable: false })
}
