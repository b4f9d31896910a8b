/**
 * Runs every portable test in Node, in the edge runtime and in headless Chromium in one Vitest
 * run (the projects are shared with the other portable packages: see
 * packages/core/test/support/runtime-projects.ts); `*.node.test.ts` files run in Node only.
 */
import { defineConfig } from 'vitest/config'
import { packageTestConfig } from '../../vitest.shared.js'
import { runtimeProjects } from '../core/test/support/runtime-projects.js'

const shared = packageTestConfig(import.meta.dirname)

export default defineConfig({
  ...shared,
  test: { ...shared.test, teardownTimeout: 30_000, projects: runtimeProjects() },
})
