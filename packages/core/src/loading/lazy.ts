/**
 * A promise made on first call and shared by every later caller, forgotten if it rejects: a
 * failed chunk download, module load or backend start is tried again on the next call rather
 * than kept. The promise itself is kept because `import()` resolves its specifier again on every
 * call, which costs more than many operations it loads.
 *
 * @example
 * ```ts
 * const loadPkcs12Module = lazy(() => import('./pkcs12/load-pkcs12.js'))
 * const { loadPkcs12 } = await loadPkcs12Module()
 * ```
 */
export function lazy<T>(make: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () => {
    if (pending === undefined) {
      const made = make()
      pending = made
      made.catch(() => {
        if (pending === made) pending = undefined
      })
    }
    return pending
  }
}
