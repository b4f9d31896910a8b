import { describe, expect, it } from 'vitest'
import { globalOptions, parseFlags, readScopes } from '../src/args.js'
import { commands } from '../src/commands/registry.js'
import { runCli, stderrLines } from './support/cli-harness.js'

/** Values a flag must take as they are, written as the next argument. */
const dashValues = ['-', '-x', '--', '--json', '-Xq3vZ_kL0', '---', '-1']

describe('a flag that takes a value takes the next argument, whatever it starts with', () => {
  for (const command of commands) {
    const specs = [...command.options, ...globalOptions]
    const valueFlags = specs.filter((spec) => spec.kind === 'string')
    it(`${command.name}: every value flag (${valueFlags.length})`, () => {
      expect(valueFlags.length).toBeGreaterThan(0)
      for (const spec of valueFlags) {
        for (const value of dashValues) {
          const flags = parseFlags([`--${spec.name}`, value], specs, command.positionals.length)
          expect(flags.string(spec.name), `--${spec.name} ${value}`).toBe(value)
          expect(flags.positionals).toEqual([])
          const inline = parseFlags([`--${spec.name}=${value}`], specs, command.positionals.length)
          expect(inline.string(spec.name)).toBe(value)
        }
      }
    })
  }

  it('keeps reading the flags after such a value', () => {
    const command = commands.find((candidate) => candidate.name === 'authorize')
    const specs = [...(command?.options ?? []), ...globalOptions]
    const flags = parseFlags(['--state', '-abc', '--json', '--scope', '-odd'], specs, 0)
    expect(flags.string('state')).toBe('-abc')
    expect(flags.flag('json')).toBe(true)
    expect(flags.strings('scope')).toEqual(['-odd'])
  })

  it('still refuses a value flag at the end of the line', () => {
    expect(() => parseFlags(['--timeout'], globalOptions, 0)).toThrow('--timeout needs a value')
  })

  it('the second step of authorize reads --state -… and --code-verifier-env as given', async () => {
    // A state starting with "-", as the library's own random values do about 1 time in 64.
    const state = '-Xq3vZ_kL0-state'
    const result = await runCli(
      [
        'authorize',
        '--base-url',
        'https://ehr.example.test/fhir',
        '--client-id',
        'app',
        '--redirect-uri',
        'https://app.example.test/cb',
        '--redirect-url',
        `https://app.example.test/cb?state=${state}&error=access_denied`,
        '--state',
        state,
        '--code-verifier-env',
        'VERIFIER',
        '--timeout',
        '1',
      ],
      { env: { VERIFIER: '-v'.repeat(22) } },
    )
    // Not a usage error (exit 2): the values were read, and the run went on to the server.
    expect(result.exitCode, result.stderr).toBe(1)
    expect(stderrLines(result)[0]).not.toMatch(/needs a value|Usage/)
  })
})

describe('readScopes', () => {
  const specs = [{ name: 'scope', kind: 'string', repeatable: true, description: '' }] as const
  it('reads no --scope as undefined, and splits values on spaces', () => {
    expect(readScopes(parseFlags([], specs, 0))).toBeUndefined()
    expect(readScopes(parseFlags(['--scope', 'a b', '--scope', 'c'], specs, 0))).toEqual([
      'a',
      'b',
      'c',
    ])
  })
  it.each([[['--scope', '']], [['--scope', ' ']], [['--scope', 'a', '--scope', '']]])(
    'refuses an explicitly empty scope: %j',
    (argv) => {
      expect(() => readScopes(parseFlags(argv, specs, 0))).toThrow(/--scope is empty/)
    },
  )
})
