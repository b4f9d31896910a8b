import { describe, expect, it } from 'vitest'
import { encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import {
  directoryNameWithin,
  dnsNameWithin,
  emailAddressWithin,
  ipAddressWithin,
  uriConstraintDomain,
  uriDomainName,
  uriWithin,
} from '../../src/x509/name-matching.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'

describe('dnsNameWithin', () => {
  it.each([
    ['example.test', 'example.test', true],
    ['www.example.test', 'example.test', true],
    ['a.b.example.test', 'example.test', true],
    ['WWW.Example.TEST', 'example.TEST', true],
    ['badexample.test', 'example.test', false],
    ['example.test.evil', 'example.test', false],
    ['test', 'example.test', false],
    ['www.example.test', '.example.test', true],
    ['example.test', '.example.test', false],
    ['anything.at.all', '', true],
  ])('%s within %s: %s', (name, base, expected) => {
    expect(dnsNameWithin(name, base)).toBe(expected)
  })

  it.each([
    ['api.evil.org.', 'evil.org'],
    ['api.evil.org.', ''],
    ['api..evil.org', '.evil.org'],
    ['api.evil.org', 'evil.org.'],
    ['api.evil.org', '.evil..org'],
    ['api.evil.org', '.'],
  ])('%j cannot be placed under %j (an empty label)', (name, base) => {
    expect(dnsNameWithin(name, base)).toBeUndefined()
  })
})

describe('emailAddressWithin', () => {
  it.each([
    ['ops@example.test', 'ops@example.test', true],
    ['ops@EXAMPLE.test', 'ops@example.test', true],
    ['Ops@example.test', 'ops@example.test', false],
    ['dev@example.test', 'ops@example.test', false],
    ['ops@example.test', '@example.test', true],
    ['ops@example.test', 'example.test', true],
    ['ops@mail.example.test', 'example.test', false],
    ['ops@mail.example.test', '.example.test', true],
    ['ops@example.test', '.example.test', false],
    ['ops@other.test', 'example.test', false],
    ['"a@b"@example.test', 'example.test', true],
  ])('%s within %s: %s', (address, base, expected) => {
    expect(emailAddressWithin(address, base)).toBe(expected)
  })

  it('cannot place an address without @', () => {
    expect(emailAddressWithin('example.test', 'example.test')).toBeUndefined()
  })
})

describe('uriWithin', () => {
  it.each([
    ['https://client.example.test/app', 'client.example.test'],
    ['https://CLIENT.example.test:8443/app?x#y', 'client.example.test'],
    ['ldap://directory.example.test', 'directory.example.test'],
    ['https://host.example.test?query', 'host.example.test'],
    ['foo://HOST.example.test/', 'host.example.test'],
  ])('%s is within the host %s', (uri, host) => {
    expect(uriWithin(uri, host)).toBe(true)
  })

  it.each([
    // User info: the RFC 3986 and WHATWG readings agree here, but credentials in a name are refused.
    'https://user:pass@host.example.test/',
    'https://good.example.test@evil.test/',
    // The review's examples: hosts the URL parser reads as another name than RFC 3986 does.
    'https://evil.example\\.good.org/r4',
    'https://api.evil%2Eorg/r4',
    'https://api.evil.org./r4',
  ])('%s cannot be placed', (uri) => {
    expect(uriWithin(uri, 'good.org')).toBeUndefined()
    expect(uriWithin(uri, '.good.org')).toBeUndefined()
    expect(uriWithin(uri, 'evil.org')).toBeUndefined()
  })

  it.each(['evil.org.', 'evil%2Eorg', 'https://evil.org/', '', '127.0.0.1'])(
    'no URI can be placed under the base %j',
    (base) => {
      expect(uriWithin('https://api.evil.org/', base)).toBeUndefined()
    },
  )

  it.each([
    'urn:uuid:0000',
    'mailto:ops@example.test',
    'https:///path',
    'https://127.0.0.1:8443/fhir',
    'https://[::1]/fhir',
    'not a uri',
    '//host.example.test/relative',
  ])('%s has no DNS host', (uri) => {
    expect(uriWithin(uri, 'example.test')).toBeUndefined()
  })

  it.each([
    ['https://client.example.test/app', 'client.example.test', true],
    ['https://client.example.test/app', 'CLIENT.EXAMPLE.TEST', true],
    ['https://client.example.test/app', 'example.test', false],
    ['https://client.example.test/app', '.example.test', true],
    ['https://example.test/app', '.example.test', false],
    ['https://client.other.test/app', '.example.test', false],
    ['https://evilexample.test/', '.example.test', false],
  ])('%s within %s: %s', (uri, base, expected) => {
    expect(uriWithin(uri, base)).toBe(expected)
  })
})

describe('uriDomainName', () => {
  it.each([
    ['https://API.example.test:443/x', 'api.example.test'],
    // Only a whole dotted quad is an address: these opaque hosts are names.
    ['foo://a.1.2.3.4/', 'a.1.2.3.4'],
    ['foo://1.2.3.4.a/', '1.2.3.4.a'],
  ])('%s: %s', (uri, host) => {
    expect(uriDomainName(uri)).toBe(host)
  })

  it.each([
    'https://127.0.0.1/',
    'https://11.22.33.44/',
    'foo://1.2.3.4/',
    'https://[::1]/',
    'urn:x',
    'https://api.evil.org./',
  ])('%s: none', (uri) => {
    expect(uriDomainName(uri)).toBeUndefined()
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

describe('ipAddressWithin', () => {
  const v4 = (...octets: number[]) => Uint8Array.from(octets)
  it('matches an IPv4 address under the mask', () => {
    expect(ipAddressWithin(v4(10, 1, 2, 3), v4(10, 1, 0, 0, 255, 255, 0, 0))).toBe(true)
    expect(ipAddressWithin(v4(10, 2, 2, 3), v4(10, 1, 0, 0, 255, 255, 0, 0))).toBe(false)
    expect(ipAddressWithin(v4(10, 2, 2, 3), v4(0, 0, 0, 0, 0, 0, 0, 0))).toBe(true)
  })

  it('never matches the other family', () => {
    const v6 = new Uint8Array(16)
    expect(ipAddressWithin(v6, v4(0, 0, 0, 0, 0, 0, 0, 0))).toBe(false)
    expect(ipAddressWithin(v4(0, 0, 0, 0), new Uint8Array(32))).toBe(false)
    expect(ipAddressWithin(v6, new Uint8Array(32))).toBe(true)
  })
})

describe('directoryNameWithin', () => {
  const rdn = (oid: string, value: string) =>
    encodeDer(
      0x31,
      encodeDerSequence(encodeDerOid(oid), encodeDer(0x0c, new TextEncoder().encode(value))),
    )
  const name = (...rdns: Uint8Array[]) => encodeDerSequence(...rdns)
  const country = rdn('2.5.4.6', 'US')
  const organization = rdn('2.5.4.10', 'Example')
  const common = rdn('2.5.4.3', 'Leaf')

  it('matches when the base RDNs begin the name', () => {
    expect(
      directoryNameWithin(name(country, organization, common), name(country, organization)),
    ).toBe(true)
    expect(directoryNameWithin(name(country, organization), name(country, organization))).toBe(true)
    expect(directoryNameWithin(name(country), name())).toBe(true)
  })

  it('does not match another RDN, another order or a longer base', () => {
    expect(directoryNameWithin(name(organization, country), name(country))).toBe(false)
    expect(directoryNameWithin(name(country), name(country, organization))).toBe(false)
    expect(
      directoryNameWithin(name(country, rdn('2.5.4.10', 'example')), name(country, organization)),
    ).toBe(false)
  })
})
