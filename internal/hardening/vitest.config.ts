import { defineConfig, mergeConfig } from 'vitest/config'
import { packageTestConfig } from '../../vitest.shared.js'

// Every test runs under the unhandled-rejection and prototype-pollution guards. Property runs
// sign and verify hundreds of JWTs each: on a loaded CI machine they get 90 s, not the usual 20.
export default mergeConfig(
  defineConfig(packageTestConfig(import.meta.dirname)),
  defineConfig({ test: { setupFiles: ['test/setup/guards.ts'], testTimeout: 90_000 } }),
)
