/**
 * Vitest settings shared by every workspace package.
 *
 * Workspace packages resolve each other through the `@fhir-auth/source` export condition, so
 * tests run against `src/` without a build. Each run also writes `.vitest-report.json` (see
 * vitest.report.ts), which `scripts/summarize-tests.mjs` checks and sums into the plain
 * `N passed, N failed` line the CI reads.
 *
 * Two settings keep a green run honest (docs/testing.md):
 * - `allowOnly: false`: a committed `.only` fails the run everywhere, not only where `CI` is set
 *   (Vitest's default). Focus a test locally with `vitest run <file> -t <name>` instead.
 * - `expect.requireAssertions`: a test that makes no assertion fails, so a test whose checks
 *   never ran (an early return, a forgotten `await`) cannot pass.
 */
import { join } from 'node:path'
import type { TestUserConfig, ViteUserConfig } from 'vitest/config'
import { WorkspaceJsonReporter } from './vitest.report.js'

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
      allowOnly: false,
      expect: { requireAssertions: true },
      reporters: [
        'default',
        new WorkspaceJsonReporter({ outputFile: reportFile(packageDirectory) }),
      ],
    },
  }
}

/**
 * {@link packageTestConfig} plus the package's type tests of its public API
 * (`test/*.test-d.ts` and below): Vitest runs the compiler on them and reports each `expectTypeOf` as a
 * test.
 */
export function packageTestConfigWithTypeTests(packageDirectory: string): ViteUserConfig {
  const shared = packageTestConfig(packageDirectory)
  return {
    ...shared,
    test: {
      ...shared.test,
      typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    },
  }
}

/**
 * The settings StrykerJS runs a package's own tests with (`pnpm test:mutation`,
 * docs/testing.md): the shared settings as the `node` project, without the report file the CI
 * sums.
 *
 * @param test settings the package's tests need besides (core: its loopback global setup).
 */
export function mutationTestConfig(
  packageDirectory: string,
  test: TestUserConfig = {},
): ViteUserConfig {
  const shared = packageTestConfig(packageDirectory)
  return {
    ...shared,
    test: { ...shared.test, name: 'node', environment: 'node', reporters: ['default'], ...test },
  }
}
