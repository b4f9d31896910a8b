import { startSmartSandbox } from '@fhir-auth/sandbox'
import { describe, expect, it } from 'vitest'
import { exitStatus, runDemo } from './run-demo.js'

/** Runs the demo in-process with captured output. */
async function run(argv: readonly string[], columns?: number) {
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
    columns,
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

describe('runDemo in a terminal of 90 columns', () => {
  it('wraps every transcript line to the width; without a terminal lines stay whole', async () => {
    const wrapped = await run([], 90)
    expect(wrapped.status, wrapped.stderr).toBe(exitStatus.success)
    const widths = wrapped.stdout.split('\n').map((line) => [...line].length)
    expect(Math.max(...widths)).toBeLessThanOrEqual(90)
    const whole = await run([])
    expect(whole.status, whole.stderr).toBe(exitStatus.success)
    expect(Math.max(...whole.stdout.split('\n').map((line) => [...line].length))).toBeGreaterThan(
      90,
    )
  }, 60_000)
})
