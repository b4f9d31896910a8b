import type { Parameters } from 'fast-check'

/** One property as it was run: what a failure report needs to reproduce it. */
export interface PropertyRun {
  readonly name: string
  readonly seed: number
  readonly numRuns: number
}

const runs: PropertyRun[] = []
const handWrittenCases = new Map<string, number>()

/**
 * A fixed seed for a property, derived from its name (FNV-1a, 32 bits): the same property
 * replays the same cases on every machine, and renaming a property is the only way to get new
 * ones. A random seed would make a failure on a busy CI machine impossible to replay.
 */
export function seedFor(name: string): number {
  let hash = 0x811c9dc5
  for (const character of name) {
    hash ^= character.codePointAt(0) ?? 0
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  // fast-check takes any 32-bit integer; keep it positive so it reads well in logs.
  return hash & 0x7fffffff
}

/**
 * fast-check settings for one named property: its fixed seed and number of runs, recorded in
 * the package's case ledger and printed, so a failing run can be replayed with
 * `fc.assert(property, { seed, path })` from fast-check's report.
 *
 * @param name unique across the package; it fixes the seed.
 * @param numRuns how many generated cases to check.
 */
export function propertySettings(name: string, numRuns: number): Parameters<unknown> {
  const seed = seedFor(name)
  runs.push({ name, seed, numRuns })
  console.info(`[hardening] property "${name}": seed ${seed}, ${numRuns} runs`)
  return { seed, numRuns, endOnFailure: false }
}

/** Records hand-written cases (one table of nasties, say) in the case ledger. */
export function countHandWrittenCases(group: string, count: number): void {
  handWrittenCases.set(group, (handWrittenCases.get(group) ?? 0) + count)
}

/** Every property run and hand-written case group recorded in this test file so far. */
export function caseLedger(): {
  readonly properties: readonly PropertyRun[]
  readonly generatedCases: number
  readonly handWrittenCases: number
} {
  return {
    properties: [...runs],
    generatedCases: runs.reduce((sum, run) => sum + run.numRuns, 0),
    handWrittenCases: [...handWrittenCases.values()].reduce((sum, count) => sum + count, 0),
  }
}

/** Prints the case ledger of the current test file (call from `afterAll`). */
export function printCaseLedger(file: string): void {
  const ledger = caseLedger()
  console.info(
    `[hardening] ${file}: ${ledger.properties.length} properties, ${ledger.generatedCases} generated cases, ${ledger.handWrittenCases} hand-written cases`,
  )
}
