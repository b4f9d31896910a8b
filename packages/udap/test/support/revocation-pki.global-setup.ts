/**
 * Vitest global setup (runs in Node for every project): the revocation PKI of
 * `@fhir-auth/test-pki/revocation` and the loopback server its certificates name as CRL
 * distribution points, reached by the portable tests with the runtime's own `fetch` (Node's,
 * the edge runtime's, Chromium's). The material goes to the tests through `provide`/`inject`.
 */
import { type RevocationPkiMaterial, startRevocationPki } from '@fhir-auth/test-pki/revocation'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    revocationPki: RevocationPkiMaterial
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pki = await startRevocationPki()
  const { origin, anchorPem, crlsPem, cases, intermediateCrlUrl, rootCrlUrl } = pki
  project.provide('revocationPki', {
    origin,
    anchorPem,
    crlsPem,
    cases,
    intermediateCrlUrl,
    rootCrlUrl,
  })
  return () => pki.stop()
}
