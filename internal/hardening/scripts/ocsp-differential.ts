/**
 * The long run of the OCSP differential test (issue 30): by default 200 generated cases
 * (`startOcspCorpusCase`: a real `openssl ocsp` responder per case; good, revoked or unknown;
 * signed by the issuer, a delegated responder or a key never delegated to; with or without its
 * certificate; by name or by key; three digests), judged by both backends and by the
 * `openssl ocsp` client. It prints `N/N agree` and the outcomes, then every case that breaks a
 * promise (fhir-auth and OpenSSL differ, the case's prediction missed, the backends apart), and
 * exits 1 when one does:
 *
 *   cd internal/hardening
 *   npx tsx --conditions=@fhir-auth/source scripts/ocsp-differential.ts [count] [seed] [concurrency]
 *
 * The unit test `test/ocsp-differential.test.ts` runs 40 of them on every test run.
 */
import { openSslVersion } from '@fhir-auth/test-pki/revocation'
import {
  describeOcspReport,
  ocspBrokenPromises,
  runOcspDifferential,
} from '../src/ocsp-differential.js'

const count = Number(process.argv[2] ?? 200)
const seed = process.argv[3] ?? 'fhir-auth ocsp corpus 1'
const concurrency = Number(process.argv[4] ?? 4)
if (
  !Number.isSafeInteger(count) ||
  count <= 0 ||
  !Number.isSafeInteger(concurrency) ||
  concurrency <= 0
) {
  console.error(
    'usage: ocsp-differential.ts [count (default 200)] [seed] [concurrency (default 4)]',
  )
  process.exit(2)
}
const version = await openSslVersion()
if (version === undefined) {
  console.error('openssl is not installed')
  process.exit(2)
}

const started = performance.now()
const report = await runOcspDifferential({
  seed,
  size: count,
  openSslVersion: version,
  concurrency,
})
const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.log(`${describeOcspReport(report)} (${seconds} s)`)
const broken = ocspBrokenPromises(report)
for (const line of broken) console.log(line)
console.log(broken.length === 0 ? 'no broken promise' : `${broken.length} broken promises`)
process.exitCode = broken.length === 0 ? 0 : 1
