/**
 * Sizes of esbuild output files and of groups of them (the chunks a browser loads at one
 * moment), with the source modules each group holds, from the metafile.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Metafile, OutputFile } from 'esbuild'
import { forbiddenBrowserPackages, packagesOfModules } from './third-party-modules.js'

/** One output file of a bundle. */
export interface BundleChunk {
  /** The minified code, kept to measure groups as one file. */
  readonly contents: Uint8Array
  /** The file name esbuild gave it (`public-app.js`, `chunk-ABC123.js`). */
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

/** The chunks a browser loads for one purpose (up front, or over a whole run). */
export interface ChunkGroup {
  readonly chunks: readonly BundleChunk[]
  readonly minifiedBytes: number
  /** Sum over the chunks of each chunk's own gzip size: each file travels compressed on its own. */
  readonly gzipBytes: number
  /**
   * The group's code compressed as one file: what a bundler that merges shared chunks (webpack's
   * default `splitChunks`) would serve. For comparison only; budgets judge `gzipBytes`.
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

/** Sizes every output file, keyed by its path in the metafile (relative to `workingDirectory`). */
export function measureChunks(
  files: readonly OutputFile[],
  workingDirectory: string,
): ReadonlyMap<string, BundleChunk> {
  const chunks = new Map<string, BundleChunk>()
  for (const file of files) {
    const relativePath = file.path.slice(workingDirectory.length + 1)
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

/**
 * The group of the output files at `paths` (metafile paths).
 *
 * @throws Error when a path has no output file (a bug in the caller).
 */
export function chunkGroup(
  metafile: Metafile,
  chunks: ReadonlyMap<string, BundleChunk>,
  paths: Iterable<string>,
): ChunkGroup {
  const pathList = [...new Set(paths)]
  const groupChunks = pathList.map((path) => {
    const chunk = chunks.get(path)
    if (chunk === undefined) throw new Error(`esbuild wrote no file for ${path}`)
    return chunk
  })
  const moduleBytes = new Map<string, number>()
  for (const path of pathList) {
    for (const [input, share] of Object.entries(metafile.outputs[path]?.inputs ?? {})) {
      moduleBytes.set(input, (moduleBytes.get(input) ?? 0) + share.bytesInOutput)
    }
  }
  const modules = [...moduleBytes]
    .map(([path, bytes]) => ({ path, bytes }))
    .filter((module) => module.bytes > 0)
    .sort((left, right) => right.bytes - left.bytes || left.path.localeCompare(right.path))
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
