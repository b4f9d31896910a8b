import { defineConfig } from 'vitest/config'
import { packageTestConfig } from '../../vitest.shared.js'

const shared = packageTestConfig(import.meta.dirname)

// The packaging and runtime checks each run `npm install` (tarballs; Deno and Bun): one file at a
// time, so they do not compete for the npm cache and the network under CI load.
export default defineConfig({ ...shared, test: { ...shared.test, fileParallelism: false } })
