/**
 * The long run of the fetched-revocation differential test (issue 30): by default 500 generated
 * PKIs (`generateRevocationCorpus`) whose CRL distribution points and caIssuers URLs a loopback
 * server answers, judged by both backends with CRLs fetched and by
 * `openssl verify -crl_download -crl_check_all -x509_strict -partial_chain`. It prints
 * `N/N agree`, the written disagreements and fhir-auth's verdicts by count, then every case that
 * breaks a promise (an unexplained disagreement, a verdict off the corpus's expectation, the two
 * backends apart), and exits 1 when one does. Run it after changing
 * `packages/core/src/x509/revocation-online/` or the path policy:
 *
 *   cd internal/hardening
 *   npx tsx --conditions=@fhir-auth/source scripts/crl-download-differential.ts [count] [seed] [concurrency]
 *
 * The unit test `test/crl-download-differential.test.ts` runs 60 of them on every test run.
 */
import { openSslVersion } from '@fhir-auth/test-pki/revocation'
import {
  brokenPromises,
  describeCrlDownloadReport,
  runCrlDownloadDifferential,
} from '../src/crl-download-differential.js'

const count = Number(process.argv[2] ?? 500)
const seed = process.argv[3] ?? 'fhir-auth revocation corpus 1'
const concurrency = Number(process.argv[4] ?? 4)
if (
  !Number.isSafeInteger(count) ||
  count <= 0 ||
  !Number.isSafeInteger(concurrency) ||
  concurrency <= 0
) {
  console.error(
    'usage: crl-download-differential.ts [count (default 500)] [seed] [concurrency (default 4)]',
  )
  process.exit(2)
}
const version = await openSslVersion()
if (version === undefined) {
  console.error('openssl is not installed')
  process.exit(2)
}

const started = performance.now()
const report = await runCrlDownloadDifferential({
  seed,
  size: count,
  openSslVersion: version,
  concurrency,
})
const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.log(`${describeCrlDownloadReport(report)} (${seconds} s)`)
const broken = brokenPromises(report)
for (const line of broken) console.log(line)
console.log(broken.length === 0 ? 'no broken promise' : `${broken.length} broken promises`)
process.exitCode = broken.length === 0 ? 0 : 1
