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

import {
  brokenPromises,
  describeCrlDownloadReport,
  runCrlDownloadDifferential,
} from '../src/crl-download-differential.js'
import { runDifferentialCommand } from '../src/differential-command.js'

await runDifferentialCommand(
  {
    script: 'crl-download-differential.ts',
    defaultCount: 500,
    defaultSeed: 'fhir-auth revocation corpus 1',
    run: runCrlDownloadDifferential,
    describe: describeCrlDownloadReport,
    broken: brokenPromises,
  },
  process.argv.slice(2),
)
