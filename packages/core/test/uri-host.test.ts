import { describe, expect, it } from 'vitest'
import { hasEmptyLabel, readUriHost, uriHostRule } from '../src/http/uri-host.js'

describe('readUriHost: hosts the text spells as the WHATWG parser reads them', () => {
  it.each([
    ['https://client.example.test/app', 'client.example.test'],
    ['https://CLIENT.Example.test:8443/app?x#y', 'client.example.test'],
    ['https://host.example.test?query', 'host.example.test'],
    ['https://host.example.test#fragment', 'host.example.test'],
    ['https://host.example.test', 'host.example.test'],
    ['https://host.example.test:/', 'host.example.test'],
    ['https://host.example.test:0443/', 'host.example.test'],
    ['HTTPS://host.example.test/', 'host.example.test'],
    ['ldap://directory.example.test', 'directory.example.test'],
    ['https://xn--bcher-kva.example/', 'xn--bcher-kva.example'],
    ['https://a-b_c.example/', 'a-b_c.example'],
    ['https://localhost:8080/fhir', 'localhost'],
    ['https://127.0.0.1:8443/fhir', '127.0.0.1'],
    ['https://[::1]/fhir', '[::1]'],
    ['https://[::1]:99/', '[::1]'],
    ['https://[FE80::1]/', '[fe80::1]'],
    // A non-special scheme keeps its (opaque) host as written.
    ['foo://EXAMPLE.test/x', 'EXAMPLE.test'],
    ['foo://1.2.3.4/', '1.2.3.4'],
    // After the host, anything goes: the path, query and fragment do not name it.
    ['https://host.example.test/a\\b%2F@c d', 'host.example.test'],
    ['https://host.example.test/path\t', 'host.example.test'],
  ])('%s: %s', (uri, host) => {
    expect(readUriHost(uri)).toBe(host)
  })

  it.each([
    'urn:uuid:0000',
    'mailto:ops@example.test',
    'did:web:example.test',
    'file:///etc/hosts',
    'com.example.app:/callback',
  ])('%s: no host ("")', (uri) => {
    expect(readUriHost(uri)).toBe('')
  })
})

describe('readUriHost: hosts the text does not spell as the parser reads them are refused', () => {
  it.each([
    // The review's three examples.
    'https://evil.example\\.good.org/r4',
    'https://api.evil%2Eorg/r4',
    'https://api.evil.org./r4',
    // Trailing dots and empty labels, which the parser keeps.
    'https://api.evil.org.:443/r4',
    'https://a..evil.org/',
    'https://.evil.org/',
    'foo://api.evil.org./',
    // User info.
    'https://user:pass@host.example.test/',
    'https://good.example.test@evil.test/',
    'https://@evil.test/',
    // Percent-encoding, decoded (special schemes) or kept (an opaque host).
    'https://evil.test%2e.good.org/',
    'https://ehr.ex%61mple.org/',
    'foo://a%2Eb/',
    'foo://a%2eb.evil.org/',
    // Control characters and spaces, which the parser drops or strips.
    'https://evil.test\t.good.org/',
    'https://evil.test\n/',
    'ht\rtps://evil.test/',
    ' https://evil.test/',
    '\u0000https://evil.test/',
    // A host the parser finds without `//`, or past extra slashes.
    'https:evil.test/x',
    'https:/evil.test/x',
    'https:///evil.test/x',
    'https:\\\\evil.test/x',
    // Hosts the parser rewrites: IPv4 numbers, IPv6 forms, IDNA.
    'https://0x7f.1/',
    'https://127.1/',
    'https://1.2.3.4./',
    'https://[0:0::1]/',
    'https://bücher.example/',
    'https://a\u00adb.example/',
    'https://\u212Aevil.org/',
    // What the parser refuses.
    'https://host.example.test:99999/',
    'https://evil.test%00.good.org/',
    'not a uri',
    '//host.example.test/relative',
  ])('%j', (uri) => {
    expect(readUriHost(uri)).toBeUndefined()
  })

  it('a host followed by anything but a port, path, query or fragment', () => {
    // The parser ends the host at "\\" (special schemes): what follows is not the host RFC 3986 reads.
    expect(readUriHost('https://evil.example\\@good.org/')).toBeUndefined()
    expect(readUriHost('https://evil.example\\')).toBeUndefined()
    // RFC 3986 reads user info "good.org:443\\" and the host evil.org; the parser, the host good.org.
    expect(readUriHost('https://good.org:443\\@evil.org/')).toBeUndefined()
    expect(readUriHost('https://good.org:443?@evil.org/')).toBe('good.org')
    expect(readUriHost('https://good.org:443#x')).toBe('good.org')
    expect(readUriHost('https://good.org:443')).toBe('good.org')
  })
})

describe('uriHostRule', () => {
  it('says what a URI must do, to end a sentence', () => {
    expect(`baseUrl ${uriHostRule}`).toBe(
      'baseUrl must name its host as the WHATWG URL parser reads it',
    )
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
