// The tests StrykerJS runs for `pnpm test:mutation`: the web layer's own, in Node, with the two
// SMART sandboxes of its global setup, one file at a time (they count the sandboxes' requests).
import { defineConfig } from 'vitest/config'
import { mutationTestConfig } from '../../vitest.shared.js'

export default defineConfig(
  mutationTestConfig(import.meta.dirname, {
    globalSetup: ['./test/support/sandboxes.global-setup.ts'],
    fileParallelism: false,
  }),
)
