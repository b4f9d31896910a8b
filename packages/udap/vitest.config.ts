/**
 * Runs every portable test in Node, in the edge runtime and in headless Chromium in one Vitest
 * run (the projects are shared with the other portable packages: see
 * internal/test-utils/src/vitest/runtime-projects.ts); `*.node.test.ts` files run in Node only.
 * The global setup starts the loopback server of the revocation PKI (CRL distribution points).
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
    globalSetup: ['./test/support/revocation-pki.global-setup.ts'],
    projects: runtimeProjects(),
  },
})
