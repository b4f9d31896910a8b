import type { Metafile } from 'esbuild'

/**
 * The output files a chunk needs before it can run: itself and, transitively, every chunk it
 * imports with a static `import` statement. Dynamic `import()` targets are not followed: they
 * load later, on first use, and are measured as their own group.
 *
 * @throws Error when `start` is not an output of the metafile (a bug in the caller).
 */
export function staticClosure(metafile: Metafile, start: string): ReadonlySet<string> {
  const closure = new Set<string>()
  const pending = [start]
  while (pending.length > 0) {
    const path = pending.pop() as string
    if (closure.has(path)) continue
    const output = metafile.outputs[path]
    if (output === undefined) throw new Error(`esbuild produced no output ${path}`)
    closure.add(path)
    for (const imported of output.imports) {
      if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path)
    }
  }
  return closure
}
