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
import { runDifferentialCommand } from '../src/differential-command.js'
import {
  describeOcspReport,
  ocspBrokenPromises,
  runOcspDifferential,
} from '../src/ocsp-differential.js'

await runDifferentialCommand(
  {
    script: 'ocsp-differential.ts',
    defaultCount: 200,
    defaultSeed: 'fhir-auth ocsp corpus 1',
    run: runOcspDifferential,
    describe: describeOcspReport,
    broken: ocspBrokenPromises,
  },
  process.argv.slice(2),
)
