/**
 * How much of the code an app loaded its run actually executed, from V8's block coverage in
 * Chromium. Two floors for the bytes issue 16 budgets:
 * - **whole functions run**: the loaded chunks without every function that never ran. No
 *   arrangement of files, chunks or lazy loading can go below it while a flow keeps every function
 *   it calls whole (every check inside it included);
 * - **blocks run**: without every block that never ran either — the refusal branches and their
 *   messages. Below the first floor only by taking checks or text out of the functions a flow runs.
 *
 * Each chunk is cut and gzipped on its own, as the browser fetches it. The cut text is no longer
 * valid JavaScript; only its size counts.
 *
 * @see https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-ScriptCoverage
 */
import { gzipSync } from 'node:zlib'

/** One script's coverage as Playwright reports it (`page.coverage.stopJSCoverage()`). */
export interface ScriptCoverage {
  readonly url: string
  readonly source?: string | undefined
  readonly functions: readonly {
    readonly ranges: readonly {
      readonly startOffset: number
      readonly endOffset: number
      readonly count: number
    }[]
  }[]
}

/** The two floors, in gzip bytes summed over the chunks. */
export interface CodeRun {
  readonly functionsRunGzipBytes: number
  readonly blocksRunGzipBytes: number
}

/**
 * The floors of the chunks named in `chunkNames` (file names, as the chunk server serves them).
 *
 * @throws Error when a named chunk has no coverage: the run did not load what the figure claims.
 */
export function codeRun(
  coverage: readonly ScriptCoverage[],
  chunkNames: readonly string[],
): CodeRun {
  let functionsRunGzipBytes = 0
  let blocksRunGzipBytes = 0
  for (const name of chunkNames) {
    const script = coverage.find((entry) => new URL(entry.url).pathname === `/${name}`)
    if (script?.source === undefined) throw new Error(`no coverage of the loaded chunk ${name}`)
    functionsRunGzipBytes += gzipBytes(keptText(script.source, neverRun(script, 'functions')))
    blocksRunGzipBytes += gzipBytes(keptText(script.source, neverRun(script, 'blocks')))
  }
  return { functionsRunGzipBytes, blocksRunGzipBytes }
}

/**
 * A mask over the source's UTF-16 offsets (V8's unit): 1 where code never ran. Ranges nest (a
 * script, its functions, their blocks), so they are applied outermost first and an inner range
 * overrides the one around it.
 */
function neverRun(script: ScriptCoverage, granularity: 'functions' | 'blocks'): Uint8Array {
  const mask = new Uint8Array(script.source?.length ?? 0)
  const ranges = script.functions
    .flatMap(({ ranges: own }) => (granularity === 'functions' ? own.slice(0, 1) : own))
    .sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset)
  for (const range of ranges) {
    // Whole functions: a function that ran keeps everything in it, even what never ran.
    if (granularity === 'functions' && range.count > 0) continue
    mask.fill(range.count === 0 ? 1 : 0, range.startOffset, range.endOffset)
  }
  return mask
}

function keptText(source: string, removed: Uint8Array): string {
  const parts: string[] = []
  let start = -1
  for (let index = 0; index <= source.length; index += 1) {
    const keep = index < source.length && removed[index] === 0
    if (keep && start < 0) start = index
    if (!keep && start >= 0) {
      parts.push(source.slice(start, index))
      start = -1
    }
  }
  return parts.join('')
}

function gzipBytes(text: string): number {
  return gzipSync(Buffer.from(text), { level: 9 }).byteLength
}
