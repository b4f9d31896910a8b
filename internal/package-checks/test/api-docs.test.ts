/**
 * The API reference (`pnpm docs:api`, TypeDoc over the six published packages) must build with
 * zero warnings: a broken `{@link}`, a type used in the public API but not exported, or a
 * relative link to a missing file fails here. Output goes to a scratch directory, not docs/api.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCommand } from './support/run-command.js'

const root = join(import.meta.dirname, '..', '..', '..')
const scratch = mkdtempSync(join(tmpdir(), 'fhir-auth-api-docs-'))

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('API reference', () => {
  it('builds with TypeDoc and zero warnings', async () => {
    const typedoc = join(root, 'node_modules', '.bin', 'typedoc')
    const result = await runCommand(typedoc, ['--out', scratch], { cwd: root, timeoutMs: 150_000 })
    expect(result.exitCode, result.output).toBe(0)
    expect(result.output).not.toMatch(/\[warning\]|\[error\]/)
    expect(result.output).toContain('html generated')
  }, 160_000)
})
