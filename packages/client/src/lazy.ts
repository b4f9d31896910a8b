/**
 * A promise made on first call and shared by every later caller, forgotten if it rejects: a
 * failed chunk download or backend start is tried again on the next call rather than kept. The
 * promise itself is kept because `import()` resolves its specifier again on every call.
 *
 * @internal
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
