/**
 * Runs the tests three times in one Vitest run: in Node, in the edge runtime and in real headless
 * Chromium (the projects are shared with the other portable packages: see
 * internal/test-utils/src/vitest/runtime-projects.ts). All write into the one `.vitest-report.json`
 * the CI reads. Tests named `*.node.test.ts` need Node APIs (esbuild, zlib) and run in Node only.
 */
import { defineConfig } from 'vitest/config'
import { runtimeProjects } from '../../internal/test-utils/src/vitest/runtime-projects.js'
import { packageTestConfig } from '../../vitest.shared.js'

const shared = packageTestConfig(import.meta.dirname)

export default defineConfig({
  ...shared,
  test: { ...shared.test, teardownTimeout: 30_000, projects: runtimeProjects() },
})
