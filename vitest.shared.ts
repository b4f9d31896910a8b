/**
 * Vitest settings shared by every workspace package.
 *
 * Workspace packages resolve each other through the `@fhir-auth/source` export condition, so
 * tests run against `src/` without a build. Each run also writes `.vitest-report.json`, which
 * `.ci/run` sums into the plain `N passed, N failed` line the CI reads.
 */
import { join } from 'node:path'
import type { ViteUserConfig } from 'vitest/config'

/**
 * The report file: `.vitest-report.json`, or `.vitest-report.<suffix>.json` when
 * `FHIR_AUTH_REPORT_SUFFIX` is set (the CI's second run on another Node version keeps its own).
 */
export function reportFile(packageDirectory: string): string {
  const suffix = process.env.FHIR_AUTH_REPORT_SUFFIX
  return join(packageDirectory, suffix ? `.vitest-report.${suffix}.json` : '.vitest-report.json')
}

export function packageTestConfig(packageDirectory: string): ViteUserConfig {
  return {
    resolve: { conditions: ['@fhir-auth/source'] },
    ssr: { resolve: { conditions: ['@fhir-auth/source'] } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      restoreMocks: true,
      testTimeout: 20_000,
      hookTimeout: 30_000,
      pool: 'threads',
      maxWorkers: 2,
      reporters: ['default', ['json', { outputFile: reportFile(packageDirectory) }]],
    },
  }
}
