/**
 * Bundles one browser app the way issue 16 measured it: esbuild `--bundle --minify --format=esm
 * --platform=browser --target=es2022 --splitting` (the flags of research/smart-anchors.md §C.1
 * plus splitting, so the library's lazy `import()`s become chunks of their own), in memory.
 */
import { basename, relative, resolve } from 'node:path'
import { build, type Metafile } from 'esbuild'
import { benchDirectory, repositoryRoot } from '../workspace-paths.js'
import { type BundleChunk, measureChunks } from './chunk-group.js'

/** One app's bundle. */
export interface BrowserAppBundle {
  readonly metafile: Metafile
  /** Every output file by its metafile path. */
  readonly chunks: ReadonlyMap<string, BundleChunk>
  /** The entry chunk's metafile path. */
  readonly entryOutput: string
  /** Metafile path by file name: what a browser asks the chunk server for. */
  readonly pathsByName: ReadonlyMap<string, string>
}

/** Where the library is taken from: its TypeScript sources, or the built `dist`. */
export type LibrarySource = 'sources' | 'dist'

/**
 * Bundles `entry` (a path relative to `internal/bench/src/bundle/apps`).
 *
 * @param librarySource `sources` resolves `@fhir-auth/*` through the `@fhir-auth/source`
 *   condition (no build needed); `dist` uses the built packages as npm users get them.
 * @throws Error when esbuild fails.
 */
export async function buildBrowserApp(
  entry: string,
  librarySource: LibrarySource = 'sources',
): Promise<BrowserAppBundle> {
  const entryPath = resolve(benchDirectory, 'src/bundle/apps', entry)
  const result = await build({
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    conditions: librarySource === 'sources' ? ['@fhir-auth/source'] : [],
    entryPoints: [entryPath],
    // Paths in the metafile are relative to this; the output is never written.
    absWorkingDir: repositoryRoot,
    outdir: resolve(benchDirectory, '.bundle', basename(entry, '.ts')),
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const chunks = measureChunks(result.outputFiles, repositoryRoot)
  // Lazily imported modules are entry points of the metafile too: find the app's own.
  const entryPoint = relative(repositoryRoot, entryPath)
  const entryOutput = Object.keys(result.metafile.outputs).find(
    (path) => result.metafile.outputs[path]?.entryPoint === entryPoint,
  )
  if (entryOutput === undefined) throw new Error(`esbuild produced no entry chunk for ${entry}`)
  const pathsByName = new Map([...chunks].map(([path, chunk]) => [chunk.name, path]))
  return { metafile: result.metafile, chunks, entryOutput, pathsByName }
}
