/**
 * Aborts never crash the process (DESIGN §12): every `Client` operation, SMART and UDAP, and the
 * session operations of DESIGN §8 (begin, complete, ID token, accessToken, refresh, fetch), with a
 * signal aborted before the call and at many points during it, against the real sandboxes — run
 * in a child process with Node's default settings, where one unhandled rejection ends the
 * process. The in-process guard (`test/setup/guards.ts`) cannot see these: by the time it looks,
 * Node would already have exited. See `support/abort-run.ts` for the cases.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { countHandWrittenCases, printCaseLedger } from '../src/index.js'

interface ChildResult {
  readonly exitCode: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `support/abort-run.ts` with default Node settings (no `--unhandled-rejections` flag). */
function runChild(args: readonly string[]): Promise<ChildResult> {
  const env: NodeJS.ProcessEnv = { ...process.env }
  // Whatever the test runner put there, the child gets Node's defaults.
  delete env.NODE_OPTIONS
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=@fhir-auth/source',
        join(import.meta.dirname, 'support', 'abort-run.ts'),
        ...args,
      ],
      { cwd: join(import.meta.dirname, '..'), env, timeout: 100_000, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ exitCode, stdout, stderr })
      },
    )
  })
}

afterAll(() => {
  printCaseLedger('abort safety')
})

describe('aborting any operation, in a process with default Node settings', () => {
  it('never leaves a rejection unhandled; pre-aborted calls reject with nothing sent', async () => {
    const child = await runChild([])
    expect(child.stderr).not.toMatch(/unhandled|triggerUncaughtException/i)
    expect(child.exitCode, child.stderr).toBe(0)
    const line = child.stdout.split('\n').find((text) => text.startsWith('abort-run '))
    expect(line, child.stdout).toBeDefined()
    const summary = JSON.parse(String(line).slice('abort-run '.length)) as {
      cases: number
      fulfilled: number
      rejected: number
      preAbortedRequests: number
      requests: Record<string, number>
      operations: string[]
      violations: string[]
    }
    expect(summary.violations).toEqual([])
    expect(summary.operations).toEqual([
      'smart serverMetadata',
      'smart authorizationUrl (GET)',
      'smart authorizationUrl (POST)',
      'smart requestAccessToken (public)',
      'smart requestAccessToken (symmetric)',
      'smart requestAccessToken (asymmetric)',
      'smart refreshToken',
      'smart requestBackendToken',
      'smart registerClient',
      'udap serverMetadata',
      'udap registerClient',
      'udap requestBackendToken',
      'udap cancelRegistration',
      'smart beginAuthorization (store)',
      'smart completeAuthorization (store)',
      'smart validateIdToken',
      'smart session.accessToken (refresh)',
      'smart session.refresh',
      'smart session.fetch',
    ])
    // 19 operations × 3 server modes × (9 abort modes, never aborted included, + 2 callers sharing a client).
    expect(summary.cases).toBe(19 * 3 * 11)
    expect(summary.preAbortedRequests).toBe(0)
    for (const operation of summary.operations) {
      expect(summary.requests[operation], operation).toBeGreaterThan(0)
    }
    // Both outcomes happen: the aborts land before, during and after the requests.
    expect(summary.fulfilled).toBeGreaterThan(0)
    expect(summary.rejected).toBeGreaterThan(summary.fulfilled)
    countHandWrittenCases('abort cases in a child process', summary.cases)
    console.info(
      `[hardening] aborts: ${summary.cases} cases (${summary.fulfilled} fulfilled, ${summary.rejected} rejected), no unhandled rejection`,
    )
  }, 120_000)

  it('the child does end on an unhandled rejection (the check is not blind)', async () => {
    const child = await runChild(['--control'])
    expect(child.exitCode).not.toBe(0)
    expect(child.stderr).toContain('control: an unhandled rejection')
    expect(child.stdout).not.toContain('control survived')
  }, 60_000)
})
