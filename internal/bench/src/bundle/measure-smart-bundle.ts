import { resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build, type Metafile, type OutputFile } from 'esbuild'
import { benchDirectory, repositoryRoot } from '../workspace-paths.js'
import { outputForEntryPoint, staticClosure } from './chunk-graph.js'
import { forbiddenBrowserPackages, packagesOfModules } from './third-party-modules.js'

/** One output file of the bundle. */
export interface BundleChunk {
  /** The minified code, kept to measure groups as one bundle. */
  readonly contents: Uint8Array
  /** The file name esbuild gave it (`smart-app.js`, `chunk-ABC123.js`). */
  readonly name: string
  readonly minifiedBytes: number
  /** gzip level 9, as in the research anchors. */
  readonly gzipBytes: number
  /** brotli quality 11. */
  readonly brotliBytes: number
}

/** A source module's share of a chunk group. */
export interface ModuleShare {
  /** Repository-relative source path. */
  readonly path: string
  /** Minified bytes the module contributes to the output. */
  readonly bytes: number
}

/** The chunks a browser loads at one moment (up front, or on first use of a feature). */
export interface ChunkGroup {
  readonly chunks: readonly BundleChunk[]
  readonly minifiedBytes: number
  /** Sum over the chunks of each chunk's own gzip size: each file travels compressed on its own. */
  readonly gzipBytes: number
  /**
   * The group's code compressed as one file: what a bundler that merges a parent's shared
   * chunks into it (webpack's default `splitChunks`) serves, and the form fhirclient's
   * single-file figure was measured in.
   */
  readonly singleFileGzipBytes: number
  readonly brotliBytes: number
  /** Every source module in the group, largest first. */
  readonly modules: readonly ModuleShare[]
  /** npm packages the group's modules come from (workspace packages excluded). */
  readonly thirdPartyPackages: readonly string[]
  /** The subset of `thirdPartyPackages` a SMART browser app must never load. */
  readonly forbiddenPackages: readonly string[]
}

/** What a SMART-only browser app costs, split by when the code loads. */
export interface SmartBundleMeasurement {
  /** The entry chunk and its static imports: what loads before the app can start. */
  readonly upFront: ChunkGroup
  /** What an asymmetric client loads on first signing: the default (WebCrypto) backend chunk. */
  readonly asymmetricClient: ChunkGroup
  /** For contrast: what a UDAP client would load (never loaded by this app). */
  readonly udapClient: ChunkGroup
  /** Every output file, for the record. */
  readonly allChunks: readonly BundleChunk[]
}

const entrySource = resolve(benchDirectory, 'src/bundle/smart-app.ts')
const defaultCryptoSuffix = 'client/src/default-crypto/web.ts'
const udapProtocolSuffix = 'client/src/udap/udap-protocol.ts'

/**
 * Bundles the SMART app (`smart-app.ts`) for browsers exactly as the research anchors did
 * (esbuild `--bundle --minify --format=esm --platform=browser --target=es2022`, with
 * `--splitting` so the library's lazy `import()`s become separate chunks), in memory, and
 * splits the output by when it loads, from esbuild's metafile.
 *
 * @throws Error when esbuild fails, or when the library's lazy chunks are no longer where the
 *   measurement expects them.
 */
export async function measureSmartBundle(): Promise<SmartBundleMeasurement> {
  const result = await build({
    // The flags of the research anchors (smart-anchors.md §C.1), plus splitting so that the
    // library's lazy import()s become chunks of their own.
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    conditions: ['@fhir-auth/source'],
    entryPoints: [entrySource],
    // Paths in the metafile are relative to this; the output is never written.
    absWorkingDir: repositoryRoot,
    outdir: resolve(benchDirectory, '.bundle'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const chunks = measureChunks(result.outputFiles)
  const { metafile } = result
  const entryOutput = outputForEntryPoint(metafile, 'bench/src/bundle/smart-app.ts')
  const upFrontPaths = staticClosure(metafile, entryOutput)
  const asymmetricPaths = withoutPaths(
    staticClosure(metafile, outputForEntryPoint(metafile, defaultCryptoSuffix)),
    upFrontPaths,
  )
  const udapPaths = withoutPaths(
    staticClosure(metafile, outputForEntryPoint(metafile, udapProtocolSuffix)),
    upFrontPaths,
  )
  return {
    upFront: chunkGroup(metafile, chunks, upFrontPaths),
    asymmetricClient: chunkGroup(metafile, chunks, asymmetricPaths),
    udapClient: chunkGroup(metafile, chunks, udapPaths),
    allChunks: [...chunks.values()],
  }
}

function measureChunks(files: readonly OutputFile[]): ReadonlyMap<string, BundleChunk> {
  const chunks = new Map<string, BundleChunk>()
  for (const file of files) {
    const relativePath = file.path.slice(repositoryRoot.length + 1)
    chunks.set(relativePath, {
      name: relativePath.slice(relativePath.lastIndexOf('/') + 1),
      contents: file.contents,
      minifiedBytes: file.contents.byteLength,
      gzipBytes: gzipSync(file.contents, { level: 9 }).byteLength,
      brotliBytes: brotliCompressSync(file.contents, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      }).byteLength,
    })
  }
  return chunks
}

function withoutPaths(paths: ReadonlySet<string>, excluded: ReadonlySet<string>): Set<string> {
  return new Set([...paths].filter((path) => !excluded.has(path)))
}

function chunkGroup(
  metafile: Metafile,
  chunks: ReadonlyMap<string, BundleChunk>,
  paths: ReadonlySet<string>,
): ChunkGroup {
  const groupChunks = [...paths].map((path) => {
    const chunk = chunks.get(path)
    if (chunk === undefined) throw new Error(`esbuild wrote no file for ${path}`)
    return chunk
  })
  const moduleBytes = new Map<string, number>()
  for (const path of paths) {
    for (const [input, share] of Object.entries(metafile.outputs[path]?.inputs ?? {})) {
      moduleBytes.set(input, (moduleBytes.get(input) ?? 0) + share.bytesInOutput)
    }
  }
  const modules = [...moduleBytes]
    .map(([path, bytes]) => ({ path, bytes }))
    .sort((left, right) => right.bytes - left.bytes)
  const thirdPartyPackages = packagesOfModules(moduleBytes.keys())
  return {
    chunks: groupChunks,
    minifiedBytes: sum(groupChunks.map((chunk) => chunk.minifiedBytes)),
    gzipBytes: sum(groupChunks.map((chunk) => chunk.gzipBytes)),
    singleFileGzipBytes: gzipSync(Buffer.concat(groupChunks.map((chunk) => chunk.contents)), {
      level: 9,
    }).byteLength,
    brotliBytes: sum(groupChunks.map((chunk) => chunk.brotliBytes)),
    modules,
    thirdPartyPackages,
    forbiddenPackages: thirdPartyPackages.filter((name) => forbiddenBrowserPackages.includes(name)),
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0)
}
