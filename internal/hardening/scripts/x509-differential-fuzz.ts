/**
 * The full differential fuzz of core's X.509 readers (issue 31): by default 100 000 mutants of
 * the test PKI's certificates and CRLs, read by `parseCertificate` / `parseCrl` and, for
 * certificates, by node:crypto's `X509Certificate` (OpenSSL's loader). It prints the tally and
 * every mutant that breaks a promise (base64 DER), and exits 1 when one does: a reader threw
 * something other than a `CryptoError`, or accepted a certificate node:crypto refuses to load.
 * Run it after changing `packages/core/src/x509/` (about a minute on a free core):
 *
 *   cd internal/hardening
 *   npx tsx --conditions=@fhir-auth/source scripts/x509-differential-fuzz.ts [count] [seed]
 *
 * The unit test `test/x509-differential-fuzz.test.ts` runs 3 000 of them on every test run.
 */
import { describeTally, runX509DifferentialFuzz } from '../src/x509-differential.js'

const count = Number(process.argv[2] ?? 100_000)
const seed = Number(process.argv[3] ?? 20_261_129)
if (!Number.isSafeInteger(count) || count <= 0 || !Number.isSafeInteger(seed)) {
  console.error('usage: x509-differential-fuzz.ts [count (default 100000)] [seed]')
  process.exit(2)
}

const started = performance.now()
const report = runX509DifferentialFuzz({ seed, count })
const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.log(`${count} mutants, seed ${seed}, ${seconds} s: ${describeTally(report)}`)
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
for (const verdict of report.untyped)
  console.log(`not a CryptoError (${verdict.kind}): ${verdict.ours}\n  ${base64(verdict.der)}`)
for (const verdict of report.acceptedButNodeRefuses)
  console.log(`accepted, but node:crypto refuses to load it:\n  ${base64(verdict.der)}`)
const broken = report.untyped.length + report.acceptedButNodeRefuses.length
console.log(broken === 0 ? 'no broken promise' : `${broken} broken promises`)
process.exitCode = broken === 0 ? 0 : 1
