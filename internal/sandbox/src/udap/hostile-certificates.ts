import {
  type CertificateAuthorityOptions,
  createCertificateAuthority,
  type IssueCertificateOptions,
  type TestKeyPair,
  unknownCriticalExtension,
} from '@fhir-auth/test-pki/issuer'
import { type CommunityPki, currentValidity, type SigningMaterial } from './community-pki.js'
import { CrlPublisher } from './crl-publisher.js'
import type { CertificateVariant } from './hostile-variants.js'

const dayMs = 86_400_000

/** The URLs the SAN variants put into server certificates. */
export interface HostileUrls {
  /** Another URL on the same origin: `${publicOrigin}/other-fhir`. */
  readonly otherUrl: string
  /** The base URL with its path in upper case. */
  readonly caseUrl: string
  /** The base URL plus `/`. */
  readonly slashUrl: string
}

/** The {@link HostileUrls} of a FHIR base URL. */
export function hostileUrls(fhirBaseUrl: string): HostileUrls {
  const url = new URL(fhirBaseUrl)
  return {
    otherUrl: `${url.origin}/other-fhir`,
    caseUrl: `${url.origin}${url.pathname.toUpperCase()}`,
    slashUrl: `${fhirBaseUrl}/`,
  }
}

/**
 * Issues, in the default community, one server certificate per certificate variant. All use
 * the server's RSA key, so that the JWS always verifies with `x5c[0]` and the certificate is the
 * only thing wrong. Revoked ones are listed in the community's *current* CRLs: a client with
 * `sandbox.trust` sees fresh CRLs that say "revoked".
 */
export async function createHostileCertificates(parameters: {
  readonly pki: CommunityPki
  readonly fhirBaseUrl: string
  readonly serverKeyPair: TestKeyPair
  readonly now: () => Date
}): Promise<Record<CertificateVariant, SigningMaterial>> {
  const { pki, fhirBaseUrl, serverKeyPair, now } = parameters
  const validity = currentValidity(now())
  const urls = hostileUrls(fhirBaseUrl)
  const leafUnder = async (
    authority: CommunityPki['intermediate'],
    sanUri: string,
    window = validity,
    profile: Partial<IssueCertificateOptions> = {},
  ): Promise<SigningMaterial> => {
    const certificate = await authority.issue({
      commonName: sanUri,
      sanUris: [sanUri],
      keyPair: serverKeyPair,
      ...window,
      ...profile,
    })
    return { certificate, chainDer: certificate.chainDer }
  }
  // A further CA of the community whose current CRL joins the trust inputs, so that the rule it
  // breaks is the only failure.
  const publishedCa = async (
    name: string,
    options: Partial<CertificateAuthorityOptions> = {},
  ): Promise<CommunityPki['intermediate']> => {
    const authority = await createCertificateAuthority({
      name: `UDAP Sandbox ${name}`,
      issuer: pki.root,
      ...validity,
      ...options,
    })
    pki.addAuthority(new CrlPublisher(authority, now))
    return authority
  }
  const withoutKeyCertSign = await publishedCa('Intermediate without keyCertSign', {
    keyUsage: ['digitalSignature', 'cRLSign'],
  })
  const withoutCrlSign = await publishedCa('Intermediate without cRLSign', {
    keyUsage: ['digitalSignature', 'keyCertSign'],
  })
  const pathLengthZero = await publishedCa('Intermediate with pathLenConstraint 0', {
    pathLengthConstraint: 0,
  })
  const belowPathLengthZero = await publishedCa('Sub-CA below pathLenConstraint 0', {
    issuer: pathLengthZero,
  })
  const constrained = await publishedCa('Intermediate permitting .fhir-auth.invalid only', {
    nameConstraints: { permitted: { uris: ['.fhir-auth.invalid'] } },
  })

  const revokedIntermediate = await createCertificateAuthority({
    name: 'UDAP Sandbox Revoked Intermediate',
    issuer: pki.root,
    ...validity,
  })
  pki.rootCrls.revoke(revokedIntermediate.serialNumber)
  // Its own CRL is current, so that the revocation of the intermediate is the only failure.
  pki.addAuthority(new CrlPublisher(revokedIntermediate, now))

  const untrustedRoot = await createCertificateAuthority({
    name: 'UDAP Sandbox Untrusted Root',
    ...validity,
  })
  const untrustedIntermediate = await createCertificateAuthority({
    name: 'UDAP Sandbox Untrusted Intermediate',
    issuer: untrustedRoot,
    ...validity,
  })

  const start = now().getTime()
  const otherUrl = await leafUnder(pki.intermediate, urls.otherUrl)
  const revokedLeaf = await leafUnder(pki.intermediate, fhirBaseUrl)
  pki.intermediateCrls.revoke(revokedLeaf.certificate.serialNumber)
  return {
    'san-other-url': otherUrl,
    'iss-differs-from-base-url': otherUrl,
    'san-case-differs': await leafUnder(pki.intermediate, urls.caseUrl),
    'san-trailing-slash': await leafUnder(pki.intermediate, urls.slashUrl),
    'untrusted-root': await leafUnder(untrustedIntermediate, fhirBaseUrl),
    'revoked-leaf': revokedLeaf,
    'revoked-intermediate': await leafUnder(revokedIntermediate, fhirBaseUrl),
    'expired-leaf': await leafUnder(pki.intermediate, fhirBaseUrl, {
      notBefore: new Date(start - 30 * dayMs),
      notAfter: new Date(start - dayMs),
    }),
    'not-yet-valid-leaf': await leafUnder(pki.intermediate, fhirBaseUrl, {
      notBefore: new Date(start + dayMs),
      notAfter: new Date(start + 365 * dayMs),
    }),
    'ca-without-key-cert-sign': await leafUnder(withoutKeyCertSign, fhirBaseUrl),
    'leaf-without-digital-signature': await leafUnder(pki.intermediate, fhirBaseUrl, validity, {
      keyUsage: ['keyEncipherment'],
    }),
    'crl-issuer-without-crl-sign': await leafUnder(withoutCrlSign, fhirBaseUrl),
    'path-length-exceeded': await leafUnder(belowPathLengthZero, fhirBaseUrl),
    'name-constraints-violated': await leafUnder(constrained, fhirBaseUrl),
    'unknown-critical-extension': await leafUnder(pki.intermediate, fhirBaseUrl, validity, {
      extraExtensions: [unknownCriticalExtension()],
    }),
  }
}
