// The tests StrykerJS runs for `pnpm test:mutation`: udap's own, in Node (docs/testing.md).
import { defineConfig } from 'vitest/config'
import { mutationTestConfig } from '../../vitest.shared.js'

export default defineConfig(mutationTestConfig(import.meta.dirname))
