/**
 * Runs the tests in Node and in the edge runtime (the projects shared with the portable
 * packages: internal/test-utils/src/vitest/runtime-projects.ts; a server-side package has no
 * browser project); `*.node.test.ts` files run in Node only. The global setup starts two SMART
 * sandboxes and the driver the tests of both runtimes reach them through.
 */
import { defineConfig } from 'vitest/config'
import { runtimeProjects } from '../../internal/test-utils/src/vitest/runtime-projects.js'
import { packageTestConfig } from '../../vitest.shared.js'

const shared = packageTestConfig(import.meta.dirname)

export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    teardownTimeout: 30_000,
    globalSetup: ['./test/support/sandboxes.global-setup.ts'],
    // The tests count the requests the shared sandboxes receive: one file at a time, and one
    // project after the other.
    fileParallelism: false,
    projects: runtimeProjects()
      .filter((project) => project.test?.name !== 'browser')
      .map((project, index) => ({
        ...project,
        test: { ...project.test, sequence: { groupOrder: index } },
      })),
  },
})
