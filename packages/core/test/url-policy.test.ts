import { describe, expect, it } from 'vitest'
import {
  checkUrl,
  configuredUrlProblem,
  insecureUrlAdvice,
  isLoopbackHostname,
  isUsableUrl,
  normalizeBaseUrl,
  withoutUserInfo,
} from '../src/index.js'

describe('isLoopbackHostname', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '127.255.255.255', '[::1]'])(
    'accepts %s',
    (host) => {
      expect(isLoopbackHostname(host)).toBe(true)
    },
  )
  it.each([
    '128.0.0.1',
    '10.0.0.1',
    'localhost.example.com',
    '127.0.0.1.nip.io',
    '[::2]',
    '127.0.0.256',
    'example.org',
    '',
    // Not four decimal octets: a three-part or five-part name, and octets that only start or
    // end with digits (`1e2` is 100 to Number(), so only the anchored pattern refuses it).
    '127.0.0',
    '127.0.0.1.5',
    '127.0.0.1e2',
    '127.0.0.e12',
    '127.0.0.0x1',
  ])('refuses %s', (host) => {
    expect(isLoopbackHostname(host)).toBe(false)
  })
})

describe('checkUrl', () => {
  it('accepts HTTPS', () => {
    expect(checkUrl('https://ehr.example.org/fhir', false)).toBeUndefined()
    expect(isUsableUrl('https://ehr.example.org/fhir', false)).toBe(true)
    expect(isUsableUrl('http://127.0.0.1/', true)).toBe(true)
  })
  it.each([
    'http://127.0.0.1:8080/fhir',
    'http://localhost/x',
    'http://[::1]:9/x',
    'http://127.9.9.9/',
  ])('accepts loopback HTTP %s only with allowInsecureLocalhost', (url) => {
    expect(checkUrl(url, true)).toBeUndefined()
    expect(checkUrl(url, false)).toBe('insecure-url')
  })
  it.each([
    'http://ehr.example.org/fhir',
    'javascript:alert(1)',
    'data:text/plain,x',
    'file:///etc/passwd',
    'ftp://x/y',
    'ws://localhost/',
  ])('refuses %s even with allowInsecureLocalhost', (url) => {
    expect(checkUrl(url, true)).toBe('insecure-url')
    expect(isUsableUrl(url, true)).toBe(false)
  })
  it.each(['', '/relative', 'ehr.example.org/fhir', 'https//missing-colon'])(
    'reports %j as invalid',
    (url) => {
      expect(checkUrl(url, true)).toBe('invalid-url')
    },
  )
  it.each([
    'https://user:pass@ehr.example.org/token',
    'https://user@ehr.example.org/token',
    'https://:pass@ehr.example.org/token',
    'http://u:p@127.0.0.1:8080/token',
  ])('refuses %s: user info, configured or discovered (DESIGN §12)', (url) => {
    expect(checkUrl(url, true)).toBe('invalid-url')
    expect(isUsableUrl(url, true)).toBe(false)
  })
})

describe('configuredUrlProblem', () => {
  it.each([
    ['https://ehr.example.org/fhir', false],
    ['http://127.0.0.1:9/fhir', true],
  ])('accepts %s (allowInsecureLocalhost %s)', (url, allowInsecureLocalhost) => {
    expect(configuredUrlProblem(url, allowInsecureLocalhost)).toBeUndefined()
  })
  it.each([
    ['http://evil.example', true, /must be HTTPS/],
    ['http://127.0.0.1/fhir', false, /allowInsecureLocalhost/],
    ['https://user:pass@ehr.example.org', false, /user info/],
    ['https://user@ehr.example.org', false, /user info/],
    ['https://:secret@ehr.example.org', false, /user info/],
    ['http://user:pass@127.0.0.1/', true, /user info/],
    ['javascript:alert(1)', true, /absolute http\(s\) URL/],
    ['/relative', false, /absolute http\(s\) URL/],
  ])('refuses %s (allowInsecureLocalhost %s)', (url, allowInsecureLocalhost, problem) => {
    expect(configuredUrlProblem(url, allowInsecureLocalhost)).toMatch(problem)
  })
})

describe('insecureUrlAdvice', () => {
  it('suggests allowInsecureLocalhost only for a loopback host without it', () => {
    expect(insecureUrlAdvice('http://localhost:8080/fhir', false)).toMatch(
      /needs allowInsecureLocalhost/,
    )
    expect(insecureUrlAdvice('http://evil.example/fhir', false)).toMatch(/only to a loopback host/)
    expect(insecureUrlAdvice('http://evil.example/fhir', true)).toMatch(/only to a loopback host/)
    expect(configuredUrlProblem('http://evil.example/fhir', false)).not.toMatch(/needs/)
  })

  it('names the rule, not the option, for other schemes and for text that is not a URL', () => {
    for (const value of ['ws://localhost/socket', 'ftp://127.0.0.1/x', 'not a url']) {
      expect(insecureUrlAdvice(value, false)).toBe(
        '(plain HTTP is allowed only to a loopback host)',
      )
    }
  })
})

describe('normalizeBaseUrl and withoutUserInfo', () => {
  it('drops trailing slashes only', () => {
    expect(normalizeBaseUrl('https://ehr.example.org/fhir/')).toBe('https://ehr.example.org/fhir')
    expect(normalizeBaseUrl('https://ehr.example.org/fhir')).toBe('https://ehr.example.org/fhir')
    expect(normalizeBaseUrl('https://ehr.example.org/r4//')).toBe('https://ehr.example.org/r4')
  })
  it('replaces user info and leaves other URLs as they are', () => {
    expect(withoutUserInfo('https://alice:secret@ehr.example.org/fhir')).toBe(
      'https://[REDACTED]@ehr.example.org/fhir',
    )
    expect(withoutUserInfo('https://ehr.example.org/fhir')).toBe('https://ehr.example.org/fhir')
    expect(withoutUserInfo('not a url')).toBe('not a url')
    expect(withoutUserInfo('  https://alice@ehr.example.org/')).toBe(
      '  https://[REDACTED]@ehr.example.org/',
    )
  })

  it("touches only the URL's own user info, not a URI quoted later in it", () => {
    const quoting = 'https://ehr.example.org/fhir?contact=mailto:ops@example.org'
    expect(withoutUserInfo(quoting)).toBe(quoting)
  })
})
