/**
 * The DER and PEM readers take time linear in their input: an `x5c` certificate or a PEM file
 * is read before anything is trusted, so input built to be slow must not stall the event loop.
 * Each case times an input against one four times its size and bounds the growth per doubling
 * (about 2 when linear, 4 when quadratic); see internal/test-utils/src/growth-ratio.ts.
 * internal/bench prints the same ratios.
 */
import { describe, expect, it } from 'vitest'
import { doublingRatio, ignoringErrors } from '../../../../internal/test-utils/src/growth-ratio.js'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { parseCertificate } from '../../src/x509/certificate.js'
import { encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import { decodeSerialNumber } from '../../src/x509/der-certificate-values.js'
import { decodeDerOid } from '../../src/x509/object-identifier.js'
import { decodePemBlocks, encodePem } from '../../src/x509/pem.js'
import { withExtensions } from './fixtures/certificate-surgery.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'

/** Growth per doubling. Loose on purpose: a shared, loaded machine still tells 2 from 4. */
const linearBound = 3

/** One sub-identifier of `size` octets: `0x81 … 0x81 0x01`. */
const oneLongArc = (size: number) =>
  Uint8Array.from({ length: size }, (_, index) => (index === size - 1 ? 0x01 : 0x81))

/** Sub-identifiers of 20 octets (the longest allowed), `size` octets in all. */
const manyWideArcs = (size: number) =>
  Uint8Array.from({ length: size }, (_, index) => (index % 20 === 19 ? 0x01 : 0xff))

const leafDer = openTestPkiFiles().bytes('leaves/ec-p256-client/certificate.der')

/** The fixture leaf with one more, non-critical extension whose OID is `oidContent`. */
const leafWithOid = (oidContent: Uint8Array) =>
  withExtensions(leafDer, (extensions) => [
    ...extensions,
    encodeDerSequence(encodeDer(0x06, oidContent), encodeDer(0x04, Uint8Array.of(0x05, 0x00))),
  ])

const unterminatedBegins = (size: number) => '-----BEGIN CERTIFICATE-----\n'.repeat(size)
const manyBlocks = (size: number) => encodePem(Uint8Array.of(1, 2, 3), 'CERTIFICATE').repeat(size)

describe('linear-time readers', () => {
  it('decodes an OID in linear time, however its octets are split into arcs', () => {
    expect(doublingRatio(oneLongArc, ignoringErrors(decodeDerOid), 16_384)).toBeLessThan(
      linearBound,
    )
    expect(doublingRatio(manyWideArcs, decodeDerOid, 16_000)).toBeLessThan(linearBound)
  })

  it('parses a certificate carrying a long OID in linear time', () => {
    expect(() => parseCertificate(leafWithOid(oneLongArc(1024)))).toThrow(CryptoError)
    const built = (size: number) => leafWithOid(oneLongArc(size))
    expect(doublingRatio(built, ignoringErrors(parseCertificate), 16_384)).toBeLessThan(linearBound)
  })

  it('reads PEM in one pass, with or without END lines', () => {
    expect(() => decodePemBlocks(unterminatedBegins(2), 'CERTIFICATE')).toThrow(
      'a PEM CERTIFICATE block has no matching END line',
    )
    const decode = (text: string) => decodePemBlocks(text, 'CERTIFICATE')
    expect(doublingRatio(unterminatedBegins, ignoringErrors(decode), 4_096)).toBeLessThan(
      linearBound,
    )
    expect(doublingRatio(manyBlocks, decode, 512)).toBeLessThan(linearBound)
  })

  it('reads serial numbers in linear time', () => {
    const serial = (size: number) =>
      Uint8Array.from({ length: size }, (_, index) => 1 + (index % 127))
    expect(
      doublingRatio(
        serial,
        (content) => decodeSerialNumber(content, 'invalid-certificate'),
        32_768,
      ),
    ).toBeLessThan(linearBound)
  })
})
