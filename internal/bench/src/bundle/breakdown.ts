/**
 * A measured browser app in words: the total, the chunks in the order the browser fetched them,
 * and the per-source breakdown from the metafile. Printed by `pnpm bench` and by the packaging
 * check when a budget is exceeded.
 */
import { formatKilobytes } from '../report/format.js'
import type { ChunkGroup } from './chunk-group.js'
import type { BrowserAppMeasurement } from './measure-browser-apps.js'

/** `26.0 KB gz in 17 chunks (66.3 KB min; 22.6 KB gz as one file)`. */
export function describeGroup(group: ChunkGroup): string {
  const files = group.chunks.length === 1 ? '1 chunk' : `${group.chunks.length} chunks`
  return `${formatKilobytes(group.gzipBytes)} gz in ${files} (${formatKilobytes(group.minifiedBytes)} min; ${formatKilobytes(group.singleFileGzipBytes)} gz as one file)`
}

/**
 * The lines that explain one app's figure. `top` limits the per-source list (the rest is summed
 * in one line); without it every source is listed.
 */
export function breakdownLines(measurement: BrowserAppMeasurement, top?: number): string[] {
  const { loaded, upFront } = measurement
  const gzipOf = new Map(loaded.chunks.map((chunk) => [chunk.name, chunk.gzipBytes]))
  const order = measurement.loadOrder
    .map((name) => `${name} ${formatKilobytes(gzipOf.get(name) ?? 0)}`)
    .join(', ')
  const shown = top === undefined ? loaded.modules : loaded.modules.slice(0, top)
  const rest = loaded.modules.slice(shown.length)
  const restBytes = rest.reduce((total, module) => total + module.bytes, 0)
  const share = (bytes: number) =>
    loaded.minifiedBytes === 0 ? 0 : (100 * bytes) / loaded.minifiedBytes
  return [
    `${measurement.id}: ${measurement.description}`,
    `  loaded ${describeGroup(loaded)}; up front ${formatKilobytes(upFront.gzipBytes)} gz in ${upFront.chunks.length} chunks`,
    `  chunks in load order (gz each): ${order}`,
    `  by source (minified bytes in the loaded chunks, share of ${formatKilobytes(loaded.minifiedBytes)}):`,
    ...shown.map(
      (module) =>
        `    ${String(module.bytes).padStart(6)} B ${share(module.bytes).toFixed(1).padStart(5)} %  ${module.path}`,
    ),
    ...(rest.length === 0
      ? []
      : [
          `    ${String(restBytes).padStart(6)} B ${share(restBytes).toFixed(1).padStart(5)} %  (${rest.length} more sources)`,
        ]),
  ]
}

/** Modules of the group from the given source folders (UDAP code in a SMART app, say). */
export function modulesUnder(group: ChunkGroup, folders: readonly string[]): string[] {
  return group.modules
    .map((module) => module.path)
    .filter((path) => folders.some((folder) => path.includes(folder)))
}
