/**
 * Measures how the DER and PEM readers' CPU time grows with their input, and prints the growth
 * per doubling of each case as one JSON object on stdout. It runs as a child process of
 * `test/x509/linear-time.node.test.ts` so that the process's CPU time is this measurement's
 * alone (see internal/test-utils/src/growth-ratio.ts for why CPU time, not wall time).
 *
 * Run with `node --import tsx test/support/reader-growth-child.ts` from packages/core.
 */
import {
  ignoringErrors,
  measureDoubling,
  processCpuMilliseconds,
} from '../../../../internal/test-utils/src/growth-ratio.js'
import { parseCertificate } from '../../src/x509/certificate.js'
import { encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import { decodeSerialNumber } from '../../src/x509/der-certificate-values.js'
import { decodeDerOid } from '../../src/x509/object-identifier.js'
import { decodePemBlocks, encodePem } from '../../src/x509/pem.js'
import { withExtensions } from '../x509/fixtures/certificate-surgery.js'
import { openTestPkiFiles } from '../x509/fixtures/test-pki-files.js'

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
const serial = (size: number) => Uint8Array.from({ length: size }, (_, index) => 1 + (index % 127))
const decodeCertificatePem = (text: string) => decodePemBlocks(text, 'CERTIFICATE')

/**
 * Quadratic on purpose: every prefix of the input is summed. The test checks that the meter
 * reports such work above its bound, so a bound that nothing could fail would be noticed.
 */
function sumOfPrefixes(bytes: Uint8Array): number {
  let total = 0
  for (let end = 0; end < bytes.length; end++)
    for (let index = 0; index <= end; index++) total += bytes[index] as number
  return total
}

/** The cases, by the name the test reads: each is the growth of CPU time per doubling. */
/** Growth per doubling of `run`'s CPU time from `size` to 4 × `size`. */
const growth = <Input>(
  makeInput: (size: number) => Input,
  run: (input: Input) => void,
  size: number,
) => measureDoubling(makeInput, run, size, processCpuMilliseconds).ratio

const measurements = {
  oidOneLongArc: () => growth(oneLongArc, ignoringErrors(decodeDerOid), 16_384),
  oidManyWideArcs: () => growth(manyWideArcs, decodeDerOid, 16_000),
  certificateLongOid: () =>
    growth((size) => leafWithOid(oneLongArc(size)), ignoringErrors(parseCertificate), 16_384),
  pemUnterminated: () => growth(unterminatedBegins, ignoringErrors(decodeCertificatePem), 4_096),
  pemManyBlocks: () => growth(manyBlocks, decodeCertificatePem, 512),
  serialNumber: () =>
    growth(serial, (content) => decodeSerialNumber(content, 'invalid-certificate'), 32_768),
  quadraticControl: () => growth(serial, sumOfPrefixes, 1_024),
}

const ratios = Object.fromEntries(
  Object.entries(measurements).map(([name, measure]) => [name, measure()]),
)
// The harness reads stdout; the ratios are its only output.
process.stdout.write(`${JSON.stringify(ratios)}\n`)
