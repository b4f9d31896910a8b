/**
 * The host rule fuzzed with generated authority forms: schemes with and without `//`, user info,
 * labels with backslashes, percent-encodings, control characters, spaces, IDNA and mixed case,
 * trailing and doubled dots, IPv4 numbers in every spelling, IPv6 literals, ports and paths.
 * Whatever the rule accepts has the host the WHATWG URL parser of this runtime reads, exactly;
 * name-constraint verdicts agree with matching on that host; and no generated URI whose WHATWG
 * host lies in an excluded subtree (or outside a permitted one) ever passes.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readUriHost } from '../src/http/uri-host.js'
import { concatBytes, encodeDer, encodeDerSequence } from '../src/x509/der.js'
import { nameConstraintViolation, readNameConstraints } from '../src/x509/name-constraints.js'
import { uriDomainName, uriWithin } from '../src/x509/name-matching.js'

const runs = { numRuns: 3_000, seed: 20261128 }

const label = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom('api', 'evil', 'good', 'org', 'EVIL', 'Good', 'a-b', 'a_b', 'www'),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '%2E',
      '%2e',
      '%00',
      '%5C',
      '%5c',
      '%40',
      '%2F',
      '%61',
      '\\',
      '\t',
      '\n',
      '\r',
      ' ',
      '',
      '*',
      '@',
      'a@b',
      'xn--bcher-kva',
      'bücher',
      'ЕХР',
      'a\u00adb',
      '0x7f',
      '127',
      '1',
      '0',
      '08',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 3, unit: 'binary-ascii' }) },
)

const host = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.')),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '1.2.3.4',
      '127.1',
      '0x7f000001',
      '2130706433',
      '01.02.03.04',
      '1.2.3.4.',
      '[::1]',
      '[0:0::1]',
      '[::FFFF:1.2.3.4]',
      '[fe80::1%25eth0]',
      '[::1',
      'localhost',
      'api.evil.org',
      'api.good.org',
    ),
  },
)

/** Mostly `common`, sometimes one of `rare`: so that both accepted and refused forms are frequent. */
const mostly = (common: string, ...rare: string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(common) },
    { weight: 1, arbitrary: fc.constantFrom(...rare) },
  )

const uri = fc
  .tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('https', 'http', 'HTTPS', 'wss', 'ldap', 'foo') },
      { weight: 1, arbitrary: fc.constantFrom('file', 'urn', 'mailto') },
    ),
    mostly('://', ':', ':/', ':///', ':\\\\', ':/\\', '://\\'),
    mostly('', 'a@', 'a:b@', '@', 'good.org@', 'a%40b@'),
    host,
    mostly('', '.', '..', '.good.org', '.evil.org', '\\.good.org', '%2Egood.org', '%2eevil.org'),
    mostly(
      '',
      ':',
      ':443',
      ':0443',
      ':99999',
      ':a',
      '::1',
      ':443\\@evil.org',
      '@evil.org',
      ':@evil.org',
    ),
    fc.constantFrom('', '/r4', '/a\\b', '?q=1', '#f', '/%2e%2e/', '/a b', ' '),
  )
  .map((parts) => parts.join(''))

/** The host RFC 3986 reads: after `scheme://` and any user info, before a port or `/?#`. */
function rfc3986Host(value: string): string | undefined {
  return /^[a-z][a-z\d+.-]*:\/\/(?:[^/?#]*@)?(\[[^\]/?#]*\]|[^/?#:]*)/i.exec(value)?.[1]
}

/** RFC 5280 §4.2.1.10 for URI names, written out on a WHATWG hostname (lower case, no `%`). */
function hostWithin(hostname: string, base: string): boolean {
  const subtree = base.toLowerCase()
  return subtree.startsWith('.')
    ? hostname.endsWith(subtree) && hostname.length > subtree.length
    : hostname === subtree
}

/** The host DNS resolves for a WHATWG hostname: a trailing dot names the same host. */
function resolvedHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '')
}

const ascii = (text: string) => new TextEncoder().encode(text)
/** A nameConstraints value with URI bases in one list: `[0]` permitted or `[1]` excluded. */
const uriConstraints = (tag: 0xa0 | 0xa1, ...bases: string[]) =>
  readNameConstraints(
    encodeDerSequence(
      encodeDer(
        tag,
        concatBytes(...bases.map((base) => encodeDerSequence(encodeDer(0x86, ascii(base))))),
      ),
    ),
  )
const bases = ['good.org', '.good.org', 'evil.org', '.evil.org', 'api.evil.org', 'EVIL.org']

describe('readUriHost on generated authority forms', () => {
  it('accepts only what the WHATWG parser reads as written; its host is that hostname', () => {
    const seen = { host: 0, none: 0, refused: 0 }
    fc.assert(
      fc.property(uri, (value) => {
        const host = readUriHost(value)
        seen[host === undefined ? 'refused' : host === '' ? 'none' : 'host']++
        if (host === undefined) return
        expect(URL.canParse(value)).toBe(true)
        const { hostname } = new URL(value)
        expect(host).toBe(hostname)
        if (host === '') return
        // The host text as written follows `scheme://`, ASCII case aside.
        expect(value.toLowerCase()).toContain(`//${hostname.toLowerCase()}`)
        expect(
          value
            .slice(value.indexOf(':') + 3)
            .toLowerCase()
            .startsWith(hostname.toLowerCase()),
        ).toBe(true)
        // RFC 3986 (Appendix B, user info up to the last "@", as OpenSSL reads it) finds the same host.
        expect(rfc3986Host(value)?.toLowerCase()).toBe(hostname.toLowerCase())
        expect(hostname).not.toMatch(/[\\%@\s]/)
        expect(hostname.split('.')).not.toContain('')
      }),
      runs,
    )
    console.info(`[uri-host] readings: ${JSON.stringify(seen)}`)
    // Not vacuous: the generator reaches every outcome often.
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(50)
  })

  it('uriWithin agrees with matching on the WHATWG host, and places nothing else', () => {
    fc.assert(
      fc.property(uri, fc.constantFrom(...bases), (value, base) => {
        const verdict = uriWithin(value, base)
        if (uriDomainName(value) !== undefined) {
          expect(verdict).toBe(hostWithin(new URL(value).hostname.toLowerCase(), base))
        } else {
          expect(verdict).toBeUndefined()
        }
      }),
      runs,
    )
  })

  it('no generated URI reaching an excluded host, or a host outside the permitted ones, passes', () => {
    const excluded = uriConstraints(0xa1, 'evil.org', '.evil.org')
    const permitted = uriConstraints(0xa0, '.good.org')
    let caught = 0
    fc.assert(
      fc.property(uri, (value) => {
        const name = [{ form: 'uri' as const, value }]
        const host = URL.canParse(value) ? resolvedHost(new URL(value).hostname) : undefined
        if (host !== undefined && (host === 'evil.org' || host.endsWith('.evil.org'))) {
          caught++
          expect(nameConstraintViolation(excluded, name)).toBeDefined()
        }
        if (nameConstraintViolation(permitted, name) === undefined) {
          expect(host).toBeDefined()
          expect(host?.endsWith('.good.org')).toBe(true)
          expect(new URL(value).hostname.endsWith('.')).toBe(false)
        }
      }),
      runs,
    )
    expect(caught).toBeGreaterThan(50)
  })
})
