import { describe, expect, it } from 'vitest'
import {
  hasEmptyLabel,
  readUriHost,
  uriConstraintDomain,
  uriHostProblem,
} from '../src/http/uri-host.js'

describe('readUriHost: hosts both parsers read alike', () => {
  it.each([
    ['https://client.example.test/app', 'client.example.test'],
    ['https://CLIENT.Example.test:8443/app?x#y', 'client.example.test'],
    ['https://host.example.test?query', 'host.example.test'],
    ['https://host.example.test#fragment', 'host.example.test'],
    ['https://host.example.test', 'host.example.test'],
    ['https://host.example.test:/', 'host.example.test'],
    ['HTTPS://host.example.test/', 'host.example.test'],
    ['ldap://directory.example.test', 'directory.example.test'],
    ['https://xn--bcher-kva.example/', 'xn--bcher-kva.example'],
    ['https://a-b_c.example/', 'a-b_c.example'],
    ['https://localhost:8080/fhir', 'localhost'],
    // A non-special scheme keeps its (opaque) host as written.
    ['foo://EXAMPLE.test/x', 'EXAMPLE.test'],
    // Only a whole dotted quad is an address: these opaque hosts are names.
    ['foo://a.1.2.3.4/', 'a.1.2.3.4'],
    ['foo://1.2.3.4.a/', '1.2.3.4.a'],
    ['https://host.example.test/a\\b%2F@c d', 'host.example.test'],
    ['https://host.example.test/path ', 'host.example.test'],
  ])('%s: the domain %s', (uri, host) => {
    expect(readUriHost(uri)).toEqual({ kind: 'domain', host })
    expect(uriHostProblem(uri)).toBeUndefined()
  })

  it.each([
    ['https://127.0.0.1:8443/fhir', '127.0.0.1'],
    ['https://[::1]/fhir', '[::1]'],
    ['https://[::1]:99/', '[::1]'],
    ['https://[FE80::1]/', '[fe80::1]'],
    ['foo://1.2.3.4/', '1.2.3.4'],
    ['https://11.22.33.44/', '11.22.33.44'],
  ])('%s: the IP address %s', (uri, host) => {
    expect(readUriHost(uri)).toEqual({ kind: 'ip', host })
  })

  it.each([
    'urn:uuid:0000',
    'mailto:ops@example.test',
    'did:web:example.test',
    'file:///etc/hosts',
    'com.example.app:/callback',
  ])('%s: no host', (uri) => {
    expect(readUriHost(uri)).toEqual({ kind: 'none' })
    expect(uriHostProblem(uri)).toBeUndefined()
  })
})

describe('readUriHost: hosts the two parsers read differently are refused', () => {
  it.each([
    // The review's three examples.
    ['https://evil.example\\.good.org/r4', /backslash/],
    ['https://api.evil%2Eorg/r4', /percent-encoding/],
    ['https://api.evil.org./r4', /empty label in its host name "api\.evil\.org\."/],
    ['https://api.evil.org.:443/r4', /empty label/],
    ['https://a..evil.org/', /empty label/],
    ['https://.evil.org/', /empty label/],
    ['https://user:pass@host.example.test/', /user info/],
    ['https://good.example.test@evil.test/', /user info/],
    ['https://@evil.test/', /user info/],
    ['https://evil.test%00.good.org/', /percent-encoding/],
    ['https://evil.test%5C.good.org/', /percent-encoding/],
    ['https://evil.test%40good.org/', /percent-encoding/],
    ['https://user@evil.test:99999/', /user info/],
    ['https://evil.test\t.good.org/', /control characters/],
    ['https://evil.test\n/', /control characters/],
    ['ht\rtps://evil.test/', /control characters/],
    ['https://evil.test/\u001f', /control characters/],
    ['https://evil.test\u007f/', /control characters/],
    ['https://evil.test\u0000/', /control characters/],
    [' https://evil.test/', /no "\/\/" authority, yet the URL parser reads the host "evil\.test"/],
    ['https://evil.test /', /a space in its authority/],
    ['https://evil .test/', /a space in its authority/],
    ['https:evil.test/x', /no "\/\/" authority, yet the URL parser reads the host "evil\.test"/],
    ['https:/evil.test/x', /no "\/\/" authority/],
    ['https:///evil.test/x', /has the host "", which the URL parser reads as "evil\.test"/],
    ['https://0x7f.1/', /has the host "0x7f\.1", which the URL parser reads as "127\.0\.0\.1"/],
    ['https://1.2.3.4./', /which the URL parser reads as "1\.2\.3\.4"/],
    ['https://[0:0::1]/', /which the URL parser reads as "\[::1\]"/],
    ['https://bücher.example/', /reads as "xn--bcher-kva\.example"/],
    ['https://a\u00adb.example/', /reads as "ab\.example"/],
    ['https://host.example.test:99999/', /not a URL the WHATWG URL parser accepts/],
    ['not a uri', /not a URL the WHATWG URL parser accepts/],
    ['//host.example.test/relative', /not a URL the WHATWG URL parser accepts/],
  ])('%j: %s', (uri, problem) => {
    const reading = readUriHost(uri)
    expect(reading.kind).toBe('refused')
    expect(uriHostProblem(uri)).toMatch(problem)
  })
})

describe('uriConstraintDomain', () => {
  it.each([
    ['good.org', 'good.org'],
    ['.good.org', '.good.org'],
    ['.GOOD.Org', '.good.org'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
  ])('%s is the domain %s', (base, domain) => {
    expect(uriConstraintDomain(base)).toBe(domain)
  })

  it.each([
    '',
    '.',
    'evil.org.',
    '.evil.org.',
    'evil%2Eorg',
    'a\\b.org',
    'https://good.org/',
    'good.org/path',
    'good.org:443',
    'user@good.org',
    'evil.org#.good.org',
    '127.0.0.1',
    '[::1]',
    'bücher.example',
    '..good.org',
    '@good.org',
    '%good.org',
    '\\good.org',
  ])('%j is no host name or domain', (base) => {
    expect(uriConstraintDomain(base)).toBeUndefined()
  })
})

describe('hasEmptyLabel', () => {
  it.each([
    ['api.evil.org.', true],
    ['.evil.org', true],
    ['a..b', true],
    ['', true],
    ['api.evil.org', false],
    ['localhost', false],
  ])('%j: %s', (name, expected) => {
    expect(hasEmptyLabel(name)).toBe(expected)
  })
})
