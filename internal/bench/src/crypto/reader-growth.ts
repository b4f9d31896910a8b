import {
  type DerElement,
  decodeDerOid,
  decodePemBlocks,
  encodeDer,
  encodeDerSequence,
  encodePem,
  parseCertificate,
  readDerChildren,
  readDerDocument,
} from '@fhir-auth/core/backend'
import { testPki } from '@fhir-auth/test-pki'
import { measureDoubling, processCpuMilliseconds } from '@fhir-auth/test-utils/growth-ratio'
import type { Figure } from '../report/figure.js'
import { verdictForLimit } from '../report/figure.js'
import { roundTo } from '../report/format.js'

/** Growth per doubling of the input: about 2 when linear; 4 would be quadratic. */
const ratioGoal = 3

interface ReaderCase {
  readonly id: string
  readonly label: string
  readonly size: number
  readonly unit: string
  readonly makeInput: (size: number) => unknown
  readonly run: (input: never) => unknown
}

/** One sub-identifier of `size` octets (refused past 20 octets, in constant time). */
const oneLongArc = (size: number) =>
  Uint8Array.from({ length: size }, (_, index) => (index === size - 1 ? 0x01 : 0x81))

/** The test PKI's EC leaf with one more non-critical extension, `extension`. */
function leafWith(extension: Uint8Array): Uint8Array {
  const bytesOf = (element: DerElement) => element.bytes
  const [tbs, ...outer] = readDerChildren(
    readDerDocument(testPki.leaves['ec-p256-client'].certificateDer),
  )
  const fields = readDerChildren(tbs as DerElement).map(bytesOf)
  const [list] = readDerChildren(readDerDocument(fields[7] as Uint8Array))
  const extensions = readDerChildren(list as DerElement).map(bytesOf)
  const tbsWith = encodeDerSequence(
    ...fields.slice(0, 7),
    encodeDer(0xa3, encodeDerSequence(...extensions, extension)),
  )
  return encodeDerSequence(tbsWith, ...outer.map(bytesOf))
}

const unknownExtension = (oidContent: Uint8Array, value: Uint8Array) =>
  encodeDerSequence(encodeDer(0x06, oidContent), encodeDer(0x04, value))

const readerCases: readonly ReaderCase[] = [
  {
    id: 'oid.longArc',
    label: 'decodeDerOid, one sub-identifier',
    size: 32_768,
    unit: 'octets',
    makeInput: oneLongArc,
    run: (content: Uint8Array) => decodeDerOid(content),
  },
  {
    id: 'oid.wideArcs',
    label: 'decodeDerOid, 20-octet sub-identifiers',
    size: 32_000,
    unit: 'octets',
    makeInput: (size) =>
      Uint8Array.from({ length: size }, (_, index) => (index % 20 === 19 ? 0x01 : 0xff)),
    run: (content: Uint8Array) => decodeDerOid(content),
  },
  {
    id: 'certificate.longOid',
    label: 'parseCertificate, an extension OID of one long arc',
    size: 32_768,
    unit: 'OID octets',
    makeInput: (size) => leafWith(unknownExtension(oneLongArc(size), Uint8Array.of(5, 0))),
    run: (der: Uint8Array) => parseCertificate(der),
  },
  {
    id: 'certificate.manyArcOid',
    label: 'parseCertificate, an extension OID of many arcs',
    size: 32_768,
    unit: 'OID octets',
    makeInput: (size) =>
      leafWith(unknownExtension(new Uint8Array(size).fill(0x01), Uint8Array.of(5, 0))),
    run: (der: Uint8Array) => parseCertificate(der),
  },
  {
    id: 'pem.unterminated',
    label: 'decodePemBlocks, BEGIN lines without END',
    size: 8_192,
    unit: 'BEGIN lines',
    makeInput: (size) => '-----BEGIN CERTIFICATE-----\n'.repeat(size),
    run: (text: string) => decodePemBlocks(text, 'CERTIFICATE'),
  },
  {
    id: 'pem.blocks',
    label: 'decodePemBlocks, many certificate blocks',
    size: 256,
    unit: 'blocks',
    makeInput: (size) =>
      encodePem(testPki.leaves['ec-p256-client'].certificateDer, 'CERTIFICATE').repeat(size),
    run: (text: string) => decodePemBlocks(text, 'CERTIFICATE'),
  },
]

/**
 * The DER and PEM readers read input before anything is trusted (an `x5c` certificate, a PEM
 * file), so input built to be slow must cost time linear in its size: for each reader, the growth
 * per doubling of the input, measured over two (inputs refused are timed as refused). The clock is
 * the process's CPU time, which other processes on a busy machine do not disturb (the bench runs
 * nothing else meanwhile; see growth-ratio.ts).
 */
export function measureReaderGrowth(): { figures: Figure[]; details: string[] } {
  const figures: Figure[] = []
  const details: string[] = []
  for (const { id, label, size, unit, makeInput, run } of readerCases) {
    const measured = measureDoubling(
      makeInput,
      (input) => {
        try {
          run(input as never)
        } catch {
          // A refusal is the work being timed.
        }
      },
      size,
      processCpuMilliseconds,
    )
    figures.push({
      id: `crypto.readerGrowth.${id}`,
      label: `${label}: growth per doubling, √(CPU time(4n)/CPU time(n))`,
      goal: `≤ ${ratioGoal}×`,
      measured: `${roundTo(measured.ratio, 2)}×`,
      verdict: verdictForLimit(measured.ratio, ratioGoal),
      values: {
        ratio: roundTo(measured.ratio, 3),
        size,
        smallMs: roundTo(measured.smallMs, 4),
        largeMs: roundTo(measured.largeMs, 4),
      },
    })
    details.push(
      `${label}: ${size} ${unit} ${roundTo(measured.smallMs, 3)} ms, ${4 * size} ${unit} ${roundTo(measured.largeMs, 3)} ms of CPU time`,
    )
  }
  return { figures, details }
}
