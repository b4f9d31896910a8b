/**
 * The DER and PEM readers take time linear in their input: an `x5c` certificate or a PEM file
 * is read before anything is trusted, so input built to be slow must not stall the event loop.
 * Each case compares an input with one four times its size and bounds the growth per doubling
 * (about 2 when linear, 4 when quadratic).
 *
 * The measuring runs in a child process and counts that process's CPU time, not wall time: on a
 * machine busier than its cores for the whole run (CI on 2 cores), wall-clock ratios of these
 * same linear readers were measured anywhere from 0.6 to 9.3, while CPU-time ratios stayed within
 * 1.86–2.30 (internal/test-utils/src/growth-ratio.ts). The readers are the same JavaScript in
 * every runtime, so Node alone measures them; internal/bench prints the same ratios.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { parseCertificate } from '../../src/x509/certificate.js'
import { encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import { decodePemBlocks } from '../../src/x509/pem.js'
import { withExtensions } from './fixtures/certificate-surgery.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'

/** Growth per doubling. Loose on purpose: it tells 2 from 4, nothing finer. */
const linearBound = 3

const packageDirectory = fileURLToPath(new URL('../..', import.meta.url))

/** Runs the measuring child process and returns its ratios by case name. */
async function measureInChildProcess(): Promise<Record<string, number>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'test/support/reader-growth-child.ts'],
    { cwd: packageDirectory, timeout: 90_000 },
  )
  return JSON.parse(stdout) as Record<string, number>
}

describe('linear-time readers', () => {
  let ratios: Record<string, number> = {}
  beforeAll(async () => {
    ratios = await measureInChildProcess()
  }, 120_000)

  const ratioOf = (name: string): number => {
    const ratio = ratios[name]
    if (typeof ratio !== 'number') throw new Error(`the child process measured no ${name}`)
    return ratio
  }

  it('measures a quadratic control above the bound, so the bound can fail', () => {
    expect(ratioOf('quadraticControl')).toBeGreaterThan(linearBound)
  })

  it('decodes an OID in linear time, however its octets are split into arcs', () => {
    expect(ratioOf('oidOneLongArc')).toBeLessThan(linearBound)
    expect(ratioOf('oidManyWideArcs')).toBeLessThan(linearBound)
  })

  it('parses a certificate carrying a long OID in linear time, refusing it', () => {
    const leaf = openTestPkiFiles().bytes('leaves/ec-p256-client/certificate.der')
    const longArc = Uint8Array.from({ length: 1024 }, (_, index) => (index === 1023 ? 1 : 0x81))
    const withLongOid = withExtensions(leaf, (extensions) => [
      ...extensions,
      encodeDerSequence(encodeDer(0x06, longArc), encodeDer(0x04, Uint8Array.of(0x05, 0x00))),
    ])
    expect(() => parseCertificate(withLongOid)).toThrow(CryptoError)
    expect(ratioOf('certificateLongOid')).toBeLessThan(linearBound)
  })

  it('reads PEM in one pass, with or without END lines', () => {
    const twoBegins = '-----BEGIN CERTIFICATE-----\n'.repeat(2)
    expect(() => decodePemBlocks(twoBegins, 'CERTIFICATE')).toThrow(
      'a PEM CERTIFICATE block has no matching END line',
    )
    expect(ratioOf('pemUnterminated')).toBeLessThan(linearBound)
    expect(ratioOf('pemManyBlocks')).toBeLessThan(linearBound)
  })

  it('reads serial numbers in linear time', () => {
    expect(ratioOf('serialNumber')).toBeLessThan(linearBound)
  })
})
