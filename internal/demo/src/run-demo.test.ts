import { startSmartSandbox } from '@fhir-auth/sandbox'
import { describe, expect, it } from 'vitest'
import { exitStatus, runDemo } from './run-demo.js'

/** Runs the demo in-process with captured output. */
async function run(argv: readonly string[]) {
  let stdout = ''
  let stderr = ''
  const status = await runDemo({
    argv,
    environment: {},
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
    stdoutIsTerminal: false,
  })
  return { status, stdout, stderr }
}

describe('runDemo (command line handling, in-process)', () => {
  it('answers --help with the usage and status 0', async () => {
    const result = await run(['--help'])
    expect(result).toMatchObject({ status: exitStatus.success, stderr: '' })
    expect(result.stdout).toContain('pnpm demo --base-url <fhir-base-url>')
  })

  it('reports a wrong command line in one stderr line with status 2', async () => {
    const result = await run(['--timeout'])
    expect(result).toEqual({
      status: exitStatus.usage,
      stdout: '',
      stderr: 'fhir-auth demo: --timeout needs a value (see --help)\n',
    })
  })

  it('names a trust file it cannot read, with status 2', async () => {
    const result = await run([
      '--base-url',
      'https://fhir.example.org/r4',
      '--trust-anchor',
      '/nonexistent/anchor.pem',
    ])
    expect(result.status).toBe(exitStatus.usage)
    expect(result.stderr).toBe(
      'fhir-auth demo: cannot read /nonexistent/anchor.pem (ENOENT) (see --help)\n',
    )
  })

  it('refuses an unknown option with one stderr line and status 2', async () => {
    const result = await run(['--frobnicate'])
    expect(result).toEqual({
      status: exitStatus.usage,
      stdout: '',
      stderr: 'fhir-auth demo: unknown option --frobnicate (see --help)\n',
    })
  })

  it('exits 1 with one stderr line naming the section when --base-url cannot be reached', async () => {
    const closed = await startSmartSandbox()
    await closed.close()
    const result = await run(['--base-url', closed.fhirBaseUrl])
    expect(result.status).toBe(exitStatus.failure)
    expect(result.stderr).toMatch(
      /^fhir-auth demo failed in section 1 \(SMART discovery\): DiscoveryError[^\n]*\n$/,
    )
    expect(result.stdout).toContain('2 flows: 0 passed, 1 skipped, 1 failed')
  })
})
