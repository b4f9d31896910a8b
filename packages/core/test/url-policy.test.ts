import { describe, expect, it } from 'vitest'
import { checkUrl, isLoopbackHostname, isUsableUrl } from '../src/index.js'

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
})
