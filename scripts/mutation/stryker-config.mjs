// The StrykerJS settings of `pnpm test:mutation` (docs/testing.md), shared by the packages whose
// files are measured: each package's stryker.config.mjs names its files and calls this.
import { join } from 'node:path'

/** The score every measured file must reach (issue 17): below it, `pnpm test:mutation` fails. */
export const minimumScore = 90

/**
 * @param {string} packageName short name (`core`), which names the reports
 * @param {string[]} mutate the measured source files, relative to the package
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function strykerConfig(packageName, mutate) {
  const reports = join(import.meta.dirname, '../../reports/mutation')
  return {
    mutate,
    testRunner: 'vitest',
    // The package's own tests in Node (vitest.shared.ts: mutationTestConfig).
    vitest: { configFile: 'vitest.mutation.config.ts', related: false },
    coverageAnalysis: 'perTest',
    // In place: the tests import workspace files by relative paths (../../vitest.shared.ts,
    // internal/test-utils), which a sandbox copy of one package would break. Stryker restores
    // each file afterwards; an interrupted run leaves them to `git checkout`.
    inPlace: true,
    concurrency: 2,
    timeoutMS: 20_000,
    reporters: ['clear-text', 'progress', 'json', 'html'],
    jsonReporter: { fileName: join(reports, `${packageName}.json`) },
    htmlReporter: { fileName: join(reports, `${packageName}.html`) },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    thresholds: { high: minimumScore, low: minimumScore, break: null },
    tempDirName: '.stryker-tmp',
    cleanTempDir: 'always',
    plugins: ['@stryker-mutator/vitest-runner'],
  }
}
