/**
 * The built portable packages (core, smart, udap, crypto-webcrypto) in the other runtimes they
 * promise to support: Deno and Bun (from the npm registry, pinned), beside Node. Runs
 * `scripts/runtime-smoke/run.mjs` and surfaces each runtime's result as its own test, so CI
 * counts them.
 */
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureFreshBuild } from './support/fresh-build.js'
import { runCommand } from './support/run-command.js'

const root = join(import.meta.dirname, '..', '..', '..')
let output = ''

beforeAll(async () => {
  await ensureFreshBuild(root)
  const run = await runCommand('node', ['scripts/runtime-smoke/run.mjs'], {
    cwd: root,
    timeoutMs: 240_000,
  })
  output = run.output
}, 300_000)

describe('the portable packages in other runtimes', () => {
  it.each(['node', 'deno', 'bun'])('%s runs the smoke checks without a failure', (runtime) => {
    const line = new RegExp(`^${runtime}[^\\n]*: (\\d+) passed, (\\d+) failed$`, 'mi').exec(output)
    expect(line, output).not.toBeNull()
    expect(Number(line?.[1])).toBeGreaterThan(0)
    expect(Number(line?.[2])).toBe(0)
  })
})
