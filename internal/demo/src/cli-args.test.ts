import { describe, expect, it } from 'vitest'
import { defaultTimeoutSeconds, parseDemoArguments, UsageError } from './cli-args.js'

describe('parseDemoArguments', () => {
  it('runs the sandbox walk with colours and the default time limit when given nothing', () => {
    expect(parseDemoArguments([])).toEqual({
      help: false,
      baseUrl: undefined,
      trustAnchorFiles: [],
      crlFiles: [],
      noColor: false,
      timeoutSeconds: defaultTimeoutSeconds,
    })
  })

  it('reads --name value and --name=value, repeatable trust inputs, in order', () => {
    const options = parseDemoArguments([
      '--base-url=https://fhir.example.org/r4',
      '--trust-anchor',
      'a.pem',
      '--crl=one.crl',
      '--trust-anchor=b.pem',
      '--crl',
      'two.crl',
      '--timeout',
      '2.5',
      '--no-color',
    ])
    expect(options.baseUrl).toBe('https://fhir.example.org/r4')
    expect(options.trustAnchorFiles).toEqual(['a.pem', 'b.pem'])
    expect(options.crlFiles).toEqual(['one.crl', 'two.crl'])
    expect(options.timeoutSeconds).toBe(2.5)
    expect(options.noColor).toBe(true)
  })

  it('ignores the leading -- a package manager may pass through', () => {
    expect(parseDemoArguments(['--', '--help']).help).toBe(true)
    expect(parseDemoArguments(['-h']).help).toBe(true)
  })

  it.each([
    [['--verbose'], 'unknown option --verbose'],
    [['extra'], 'unexpected argument extra'],
    [['--base-url'], '--base-url needs a value'],
    [['--base-url', '--no-color'], '--base-url needs a value'],
    [['--base-url', 'fhir/r4'], '--base-url must be an absolute URL, got "fhir/r4"'],
    [['--base-url', 'ftp://example.org/fhir'], '--base-url must be an http(s) URL'],
    [['--timeout', '0'], '--timeout must be a positive number of seconds, got "0"'],
    [['--timeout', 'soon'], '--timeout must be a positive number of seconds, got "soon"'],
    [['--crl', 'x.crl'], '--trust-anchor and --crl apply to --base-url'],
  ])('refuses %j with a UsageError that says what to change', (argv, message) => {
    expect(() => parseDemoArguments(argv)).toThrow(UsageError)
    expect(() => parseDemoArguments(argv)).toThrow(message)
  })
})
