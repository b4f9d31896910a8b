/**
 * The shared package settings, plus the type tests of the public API (`test/*.test-d.ts`).
 */
import { defineConfig } from 'vitest/config'
import { packageTestConfigWithTypeTests } from '../../vitest.shared.js'

export default defineConfig(packageTestConfigWithTypeTests(import.meta.dirname))
