/**
 * The API reference (`pnpm docs:api`, TypeDoc over the seven published packages) must build with
 * zero warnings, and open on the repository README: a broken `{@link}`, a type used in the public API but not exported, or a
 * relative link to a missing file fails here. Output goes to a scratch directory, not docs/api.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
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
    // The root page is the README (its quick start), not a bare list of packages.
    const index = readFileSync(join(scratch, 'index.html'), 'utf8')
    expect(index).toContain('Quick start')
    expect(index).toContain('@fhir-auth/client')
  }, 160_000)
})
