/**
 * Vitest global setup (runs in Node for every project): the revocation PKI of
 * `@fhir-auth/test-pki/revocation` and the loopback server its certificates name as CRL
 * distribution points, and the OCSP PKI with its `openssl ocsp` responders behind a loopback
 * server that adds CORS headers, all reached by the portable tests with the runtime's own
 * `fetch` (Node's, the edge runtime's, Chromium's). The material goes to the tests through
 * `provide`/`inject`.
 */
import {
  type OcspPkiMaterial,
  type RevocationPkiMaterial,
  startOcspPki,
  startRevocationPki,
} from '@fhir-auth/test-pki/revocation'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    revocationPki: RevocationPkiMaterial
    ocspPki: OcspPkiMaterial
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
  const ocsp = await startOcspPki().catch(async (error: unknown) => {
    await pki.stop()
    throw error
  })
  project.provide('ocspPki', {
    origin: ocsp.origin,
    anchorPem: ocsp.anchorPem,
    cases: ocsp.cases,
    revokedIntermediateName: ocsp.revokedIntermediateName,
    rootResponderUrl: ocsp.rootResponderUrl,
    intermediateResponderUrl: ocsp.intermediateResponderUrl,
    answerValidityMinutes: ocsp.answerValidityMinutes,
  })
  return async () => {
    await Promise.all([pki.stop(), ocsp.stop()])
  }
}
