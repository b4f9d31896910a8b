/**
 * The shared package settings, plus the type tests of the public API (`test/*.test-d.ts`):
 * Vitest runs the compiler on them and reports each `expectTypeOf` as a test.
 */
import { defineConfig } from 'vitest/config'
import { packageTestConfig } from '../../vitest.shared.js'

const shared = packageTestConfig(import.meta.dirname)

export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
})
