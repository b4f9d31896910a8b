import { defineConfig, mergeConfig } from 'vitest/config'
import { packageTestConfig } from '../../vitest.shared.js'

// Every test runs under the unhandled-rejection and prototype-pollution guards.
export default mergeConfig(
  defineConfig(packageTestConfig(import.meta.dirname)),
  defineConfig({ test: { setupFiles: ['test/setup/guards.ts'] } }),
)
