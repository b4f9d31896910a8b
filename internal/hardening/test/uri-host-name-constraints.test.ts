/**
 * URI names in certificates are judged by the host the WHATWG URL parser reads (DESIGN §13), with
 * certificates a CA really signed, through both backends' `verifyCertificateChain`. OpenSSL takes
 * the RFC 3986 text of the host, so `https://evil.example\.good.org/r4` passes a permitted
 * `.good.org` there while requests go to `evil.example`; `https://api.evil%2Eorg/r4` and
 * `https://api.evil.org./r4` pass an excluded `evil.org`. The OpenSSL-parity corpus agrees with
 * OpenSSL on purpose, so these cases live here: each is `name-constraints`, and its control (the
 * same chain with the host written plainly) is accepted or refused as matching on the WHATWG
 * host says. Then generated SAN URIs: none whose WHATWG host is excluded, or outside the
 * permitted subtree, is ever accepted.
 */
import type { CryptoBackend } from '@fhir-auth/core'
import { CertificateChainError, CryptoError } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  deriveTestKeyPair,
  type NameConstraintsOptions,
} from '@fhir-auth/test-pki/issuer'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printCaseLedger, propertySettings } from '../src/index.js'

const window = {
  notBefore: new Date('2025-01-01T00:00:00Z'),
  notAfter: new Date('2045-01-01T00:00:00Z'),
}
const at = new Date('2030-01-01T00:00:00Z')
const backends: readonly [string, CryptoBackend][] = [
  ['node', createNodeCryptoBackend()],
  ['webcrypto', createWebCryptoBackend()],
]
const leafKey = deriveTestKeyPair('uri-host leaf', 'p256')

let root: CertificateAuthority
let permittedGood: CertificateAuthority
let excludedEvil: CertificateAuthority
let excludedEvilDns: CertificateAuthority
/** A current CRL of every CA: revocation is checked, and nothing is revoked. */
let crls: Uint8Array[]

async function constrainedCa(name: string, nameConstraints: NameConstraintsOptions) {
  return createCertificateAuthority({
    name,
    issuer: root,
    keyPair: deriveTestKeyPair(name, 'p256'),
    nameConstraints,
    ...window,
  })
}

beforeAll(async () => {
  root = await createCertificateAuthority({
    name: 'URI host root',
    keyPair: deriveTestKeyPair('uri-host root', 'p256'),
    ...window,
  })
  permittedGood = await constrainedCa('Permitted .good.org', { permitted: { uris: ['.good.org'] } })
  excludedEvil = await constrainedCa('Excluded evil.org', {
    excluded: { uris: ['evil.org', '.evil.org'] },
  })
  excludedEvilDns = await constrainedCa('Excluded DNS evil.org', {
    excluded: { dnsNames: ['evil.org'] },
  })
  crls = [root, permittedGood, excludedEvil, excludedEvilDns].map(
    (ca) => ca.crl({ thisUpdate: window.notBefore, nextUpdate: window.notAfter }).crlDer,
  )
})
afterAll(() => printCaseLedger('uri-host-name-constraints'))

/** The verdict of each backend for a leaf with these SANs under `ca`: `ok` or the reason. */
async function verdicts(
  ca: CertificateAuthority,
  sans: { readonly sanUris?: readonly string[]; readonly sanDnsNames?: readonly string[] },
): Promise<string[]> {
  const leaf = await ca.issue({ commonName: 'URI host leaf', keyPair: leafKey, ...window, ...sans })
  const labels: string[] = []
  for (const [, backend] of backends) {
    try {
      await backend.verifyCertificateChain({
        chain: leaf.chainDer,
        trustAnchors: [root.certificateDer],
        crls,
        at,
      })
      labels.push('ok')
    } catch (error) {
      if (CertificateChainError.isInstance(error)) labels.push(error.reason)
      else if (CryptoError.isInstance(error)) labels.push(`CryptoError ${error.reason}`)
      else throw error
    }
  }
  return labels
}

describe("the review's examples, with real certificates, through both backends", () => {
  it('https://evil.example\\.good.org/r4 under a permitted .good.org: name-constraints', async () => {
    expect(
      await verdicts(permittedGood, { sanUris: ['https://evil.example\\.good.org/r4'] }),
    ).toEqual(['name-constraints', 'name-constraints'])
    // Controls: the host requests go to is outside; a host inside passes.
    expect(await verdicts(permittedGood, { sanUris: ['https://evil.example/r4'] })).toEqual([
      'name-constraints',
      'name-constraints',
    ])
    expect(await verdicts(permittedGood, { sanUris: ['https://api.good.org/r4'] })).toEqual([
      'ok',
      'ok',
    ])
  })

  it.each(['https://api.evil%2Eorg/r4', 'https://api.evil.org./r4'])(
    '%s under an excluded evil.org: name-constraints',
    async (uri) => {
      expect(await verdicts(excludedEvil, { sanUris: [uri] })).toEqual([
        'name-constraints',
        'name-constraints',
      ])
    },
  )

  it('the controls under the excluded evil.org: the plain host is refused, another accepted', async () => {
    expect(await verdicts(excludedEvil, { sanUris: ['https://api.evil.org/r4'] })).toEqual([
      'name-constraints',
      'name-constraints',
    ])
    expect(await verdicts(excludedEvil, { sanUris: ['https://api.other.org/r4'] })).toEqual([
      'ok',
      'ok',
    ])
  })

  it.each([
    'https://api.good.org@evil.org/r4',
    'https://api.good.org:443\\@evil.org/r4',
    'https://api.evil.org%2f.good.org/r4',
    'https:api.evil.org/r4',
    'https:///api.evil.org/r4',
    'https://0x7f.1/r4',
    'https://API.EVIL.ORG:443/r4',
  ])('%s under an excluded evil.org: name-constraints', async (uri) => {
    expect(await verdicts(excludedEvil, { sanUris: [uri] })).toEqual([
      'name-constraints',
      'name-constraints',
    ])
  })

  it('a dNSName with a trailing dot under an excluded evil.org: name-constraints', async () => {
    expect(await verdicts(excludedEvilDns, { sanDnsNames: ['api.evil.org.'] })).toEqual([
      'name-constraints',
      'name-constraints',
    ])
    expect(await verdicts(excludedEvilDns, { sanDnsNames: ['api.other.org'] })).toEqual([
      'ok',
      'ok',
    ])
  })

  it('says why in the message', async () => {
    const leaf = await permittedGood.issue({
      commonName: 'URI host leaf',
      keyPair: leafKey,
      ...window,
      sanUris: ['https://evil.example\\.good.org/r4'],
    })
    const error = await createNodeCryptoBackend()
      .verifyCertificateChain({
        chain: leaf.chainDer,
        trustAnchors: [root.certificateDer],
        crls,
        at,
      })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      )
    expect(error).toBeInstanceOf(CertificateChainError)
    expect((error as Error).message).toContain(
      'must name its host as the WHATWG URL parser reads it',
    )
    expect((error as Error).message).toContain('the URL parser reads the host "evil.example"')
  })
})

describe('generated SAN URIs, with real certificates, through both backends', () => {
  const label = fc.constantFrom(
    'api',
    'evil',
    'good',
    'org',
    'EVIL',
    '%2E',
    '%2e',
    '%00',
    '%5C',
    '%40',
    '\\',
    '',
    'xn--bcher-kva',
    '127',
    '0x7f',
  )
  const uri = fc
    .tuple(
      fc.constantFrom('https://', 'https://', 'https:', 'https:///', 'https:\\\\', 'foo://'),
      fc.constantFrom('', '', '', 'a@', 'good.org@'),
      fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.')),
      fc.constantFrom('', '', '.', '.evil.org', '.good.org', '\\.good.org', '%2Eevil.org'),
      fc.constantFrom('', '', ':443', '/r4', '?x'),
    )
    .map((parts) => parts.join(''))

  /** The host a request goes to, DNS-resolved (a trailing dot names the same host). */
  const requestHost = (value: string) =>
    URL.canParse(value) ? new URL(value).hostname.toLowerCase().replace(/\.$/, '') : undefined

  it('no URI whose WHATWG host is excluded, or not permitted, is accepted', async () => {
    const seen = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(uri, async (value) => {
        const host = requestHost(value)
        const evil = host !== undefined && (host === 'evil.org' || host.endsWith('.evil.org'))
        const underExcluded = await verdicts(excludedEvil, { sanUris: [value] })
        const underPermitted = await verdicts(permittedGood, { sanUris: [value] })
        for (const verdict of [...underExcluded, ...underPermitted]) {
          seen.set(verdict, (seen.get(verdict) ?? 0) + 1)
        }
        // Both backends share the one path policy: the same verdicts.
        expect(underExcluded[0]).toBe(underExcluded[1])
        expect(underPermitted[0]).toBe(underPermitted[1])
        if (evil) expect(underExcluded[0]).not.toBe('ok')
        if (underPermitted[0] === 'ok') {
          expect(host?.endsWith('.good.org')).toBe(true)
          expect(new URL(value).hostname.endsWith('.')).toBe(false)
        }
      }),
      propertySettings('generated SAN URIs under URI name constraints', 300),
    )
    console.info(
      `[hardening] SAN URI verdicts: ${[...seen].map(([v, n]) => `${v} ${n}`).join(', ')}`,
    )
    expect(seen.get('ok') ?? 0).toBeGreaterThan(0)
    expect(seen.get('name-constraints') ?? 0).toBeGreaterThan(0)
  })
})
