/**
 * Node only: a test PKI minted at run time by `@fhir-auth/test-pki/issuer` (node:crypto), for the
 * tests that need certificates the committed fixtures do not have (other SAN spellings, the
 * node:crypto backend end to end). A community root and intermediate (EC P-256, instant), an RSA
 * server certificate whose SAN is the FHIR base URL (signed_metadata is RS256), client
 * certificates, and current CRLs for both CAs. Dates are relative to the real clock.
 */
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
} from '@fhir-auth/test-pki/issuer'

import { baseUrl, clientUri } from './pki.js'

const hour = 3_600_000
const day = 24 * hour

export interface IssuedPki {
  readonly now: Date
  readonly root: CertificateAuthority
  readonly intermediate: CertificateAuthority
  /** RSA 2048, SAN = baseUrl. */
  readonly server: IssuedCertificate
  /** EC P-256, SAN = clientUri. */
  readonly clientEc: IssuedCertificate
  /** RSA 2048, SAN = clientUri. */
  readonly clientRsa: IssuedCertificate
  /** PEM of the root. */
  readonly anchors: readonly string[]
  /** Current CRLs of root and intermediate, nothing revoked. */
  readonly crls: readonly string[]
}

export async function createIssuedPki(): Promise<IssuedPki> {
  const now = new Date()
  const notBefore = new Date(now.getTime() - day)
  const notAfter = new Date(now.getTime() + 365 * day)
  const root = await createCertificateAuthority({
    name: 'UDAP Test Root',
    keyType: 'p256',
    notBefore,
    notAfter,
  })
  const intermediate = await createCertificateAuthority({
    name: 'UDAP Test Intermediate',
    keyType: 'p256',
    issuer: root,
    notBefore,
    notAfter,
  })
  const server = await intermediate.issue({
    commonName: 'FHIR server',
    sanUris: [baseUrl],
    keyType: 'rsa2048',
  })
  const clientEc = await intermediate.issue({
    commonName: 'UDAP client',
    sanUris: [clientUri],
    keyType: 'p256',
  })
  const clientRsa = await intermediate.issue({
    commonName: 'UDAP RSA client',
    sanUris: [clientUri],
    keyType: 'rsa2048',
  })
  return {
    now,
    root,
    intermediate,
    server,
    clientEc,
    clientRsa,
    anchors: [root.certificatePem],
    crls: [currentCrl(root, now), currentCrl(intermediate, now)],
  }
}

/** A CRL valid from an hour ago to a day ahead, listing the given serials. */
export function currentCrl(
  authority: CertificateAuthority,
  now: Date,
  revokedSerials: readonly string[] = [],
): string {
  return authority.crl({
    thisUpdate: new Date(now.getTime() - hour),
    nextUpdate: new Date(now.getTime() + day),
    revokedSerials,
  }).crlPem
}
