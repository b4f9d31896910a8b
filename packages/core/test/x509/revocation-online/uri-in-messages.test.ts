/**
 * A distribution point the library does not fetch is named in the `revocation-unavailable`
 * message. Its octets are read as Latin-1, so besides the C0 controls `JSON.stringify` escapes
 * they could hold DEL and C1 controls (U+0085 NEL splits a log line for some readers, U+009B is
 * a terminal's CSI): every one is escaped. The certificate parser already refuses such a name,
 * so `describeUri` is checked on its own, and the parser's refusal alongside.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { CryptoError } from '../../../src/errors/crypto-error.js'
import { encodeDer } from '../../../src/x509/der.js'
import { describeUri } from '../../../src/x509/revocation-online/online-status.js'
import {
  createCertificate,
  distributionPoints,
  type TestCertificate,
} from '../fixtures/online-pki.js'

const validity = {
  notBefore: new Date('2026-01-01T00:00:00Z'),
  notAfter: new Date('2028-01-01T00:00:00Z'),
}

let issuer: TestCertificate

beforeAll(async () => {
  issuer = await createCertificate({ commonName: 'Message Issuer', ca: true, ...validity })
})

describe('describeUri', () => {
  it('escapes C1 controls and DEL as well as C0', () => {
    const described = describeUri('ldap://x/\u0085\u009b\u0080\u009f\u007f\u001b\n/crl')
    expect(described).toBe('"ldap://x/\\u0085\\u009b\\u0080\\u009f\\u007f\\u001b\\n/crl"')
  })

  it('keeps printable text, Latin-1 beyond C1 included, and clips at 200 characters', () => {
    expect(describeUri('file:///\u00a0\u00e9\u00ff')).toBe('"file:///\u00a0\u00e9\u00ff"')
    const long = `file:///${'\u0085'.repeat(300)}`
    expect(describeUri(long)).toBe(`"file:///${'\\u0085'.repeat(192)}…"`)
  })

  it('is not the only guard: a certificate with such a distribution point does not parse', async () => {
    const octets = Uint8Array.from([...'ldap://x/'].map((c) => c.charCodeAt(0)).concat(0x85))
    const failure = await createCertificate({
      commonName: 'Message Leaf',
      issuer,
      ...validity,
      crlDistributionPointsValue: distributionPoints([encodeDer(0x86, octets)]),
    }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(CryptoError)
  })
})
