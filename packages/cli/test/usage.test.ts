import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packageVersion } from '../src/version.js'
import { runCli, stderrLines } from './support/cli-harness.js'

describe('help and version', () => {
  it('lists every command with --help (exit 0) and without arguments (exit 2)', async () => {
    const help = await runCli(['--help'])
    expect(help.exitCode, help.stderr).toBe(0)
    for (const command of ['discover', 'register', 'token', 'authorize']) {
      expect(help.stdout).toMatch(new RegExp(`^ {2}${command} {2,}\\S`, 'm'))
    }
    expect(help.stdout).toContain('Exit codes: 0 success, 1 protocol or server failure')
    const bare = await runCli([])
    expect(bare.exitCode, bare.stderr).toBe(2)
    expect(bare.stdout).toBe(help.stdout)
  })

  it.each(['discover', 'register', 'token', 'authorize'])(
    'prints the usage of %s with --help and with "help <command>"',
    async (command) => {
      const result = await runCli([command, '--help'])
      expect(result.exitCode, result.stderr).toBe(0)
      expect(result.stdout).toMatch(new RegExp(`^fhir-auth ${command}: `))
      expect(result.stdout).toContain(`Usage:\n  fhir-auth ${command} `)
      expect(result.stdout).toContain('Global options:\n')
      expect(result.stdout).toContain('--allow-insecure-localhost')
      expect((await runCli(['help', command])).stdout).toBe(result.stdout)
      expect((await runCli([command, '-h'])).stdout).toBe(result.stdout)
    },
  )

  it('marks protocol-specific options in the help', async () => {
    const result = await runCli(['token', '--help'])
    expect(result.stdout).toMatch(/--kid <kid> +key id of the registered public key \[SMART\]\n/)
    expect(result.stdout).toMatch(/--pkcs12 <file> +.*\[UDAP\]\n/)
  })

  it.each(['authorize', 'token', 'register'])(
    'names both ways to give the PKCS#12 password in the UDAP usage line of %s',
    async (command) => {
      const result = await runCli([command, '--help'])
      const usage = result.stdout.split('\n').find((line) => line.includes(' --udap '))
      expect(usage).toContain('--pkcs12 <file> (--password-env <VAR> | --password-file <file>)')
    },
  )

  it('prints the package version with --version', async () => {
    const result = await runCli(['--version'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe(`${packageVersion()}\n`)
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/)
  })
})

describe('bad command lines exit 2 with one error line and the usage', () => {
  it.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['--json', 'discover', 'https://x.example'], '--json must follow a command'],
    [['discover', 'https://x.example', '--frobnicate'], 'unknown option --frobnicate'],
    [['discover', 'https://x.example', '-x'], 'unknown option -x'],
    [['discover', 'https://x.example', '--json=yes'], '--json takes no value'],
    [['token', '--base-url'], '--base-url needs a value'],
    [['token', '--client-id', 'app', '--base-url'], '--base-url needs a value'],
    [
      ['token', '--base-url', 'https://a.example', '--base-url', 'https://b.example'],
      '--base-url may be given only once',
    ],
    [['discover', 'https://x.example', 'extra'], 'unexpected argument "extra"'],
    [['token', 'stray'], 'unexpected argument "stray": this command takes options only'],
    [['discover'], 'the <fhir-base> argument is required'],
    [
      ['discover', 'https://x.example', '--timeout', 'soon'],
      '--timeout must be a positive whole number',
    ],
    [
      ['discover', 'https://x.example', '--timeout', '0'],
      '--timeout must be a positive whole number',
    ],
    [['token', '--udap', '--kid', 'k'], '--kid is a SMART option and cannot be used with --udap'],
    [['token', '--trust-anchor', 'a.pem'], '--trust-anchor is a UDAP option: add --udap'],
  ])('%j', async (argv, message) => {
    const result = await runCli(argv)
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.stdout).toBe('')
    const [errorLine] = stderrLines(result)
    expect(errorLine?.startsWith(`error: ${message}`), errorLine).toBe(true)
    expect(result.stderr).toContain('Usage:')
  })

  it('writes the usage error as a JSON document too with --json', async () => {
    const result = await runCli(['token', '--json', '--frobnicate'])
    expect(result.exitCode, result.stderr).toBe(2)
    expect(JSON.parse(result.stdout)).toEqual({
      error: {
        name: 'ConfigurationError',
        code: 'ERR_CONFIGURATION',
        message: 'unknown option --frobnicate',
        invalidAttribute: '--frobnicate',
        causes: [],
      },
    })
  })

  it('names the flag to fix for a library configuration error', async () => {
    const result = await runCli(['discover', 'not a url', '--allow-insecure-localhost'])
    expect(result.exitCode, result.stderr).toBe(2)
    expect(stderrLines(result)).toEqual([
      'error: baseUrl must be an absolute http(s) URL, got "not a url" (check the <fhir-base> argument)',
    ])
  })
})

describe('--timeout', () => {
  let silentServer: Server
  let baseUrl: string
  beforeAll(async () => {
    // Accepts connections and never answers: only the client's time limit ends the request.
    silentServer = createServer(() => undefined)
    await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(silentServer.address() as AddressInfo).port}/fhir`
  })
  afterAll(async () => {
    silentServer.closeAllConnections()
    await new Promise((resolve) => silentServer.close(resolve))
  })

  it('limits each request: a silent server fails after the given milliseconds (exit 1)', async () => {
    const started = performance.now()
    const result = await runCli([
      'discover',
      baseUrl,
      '--timeout',
      '200',
      '--allow-insecure-localhost',
      '--verbose',
    ])
    const elapsed = performance.now() - started
    expect(result.exitCode, result.stderr).toBe(1)
    expect(result.stderr).toContain('reason: timeout')
    expect(elapsed).toBeGreaterThanOrEqual(190)
    expect(result.stderr).toContain('200 ms')
  })
})
