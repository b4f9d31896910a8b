// The tests StrykerJS runs for `pnpm test:mutation`: the client's own, in Node, without the type
// tests (`*.test-d.ts`) of its public API (docs/testing.md).
import { defineConfig } from 'vitest/config'
import { mutationTestConfig } from '../../vitest.shared.js'

export default defineConfig(mutationTestConfig(import.meta.dirname))
