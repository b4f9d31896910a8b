/**
 * A PKI whose certificates name CRL distribution points on a loopback HTTP server this module
 * starts: the material of the "revocation fetched" tests (DESIGN of issue 30). Node only.
 *
 * Community: a P-256 root (the anchor), an intermediate whose CDP is the root's CRL, a second
 * intermediate the root revoked, and leaves under the intermediate, one per case, each naming
 * the CRL URL(s) of its case. An untrusted root with its own intermediate and leaf, and a leaf
 * with a broken signature, name URLs that must never be fetched.
 */
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
} from '../issuer/index.js'
import { certsOnlyPkcs7 } from './certs-only-pkcs7.js'
import { type RevocationServer, startRevocationServer } from './revocation-server.js'

const hour = 3_600_000
const day = 24 * hour

/** The cases, by name: what a validation with CRLs fetched must answer. */
export const revocationCaseExpectations = {
  good: 'ok',
  'second-point-answers': 'ok',
  revoked: 'revoked',
  'under-revoked-intermediate': 'revoked',
  'stale-crl': 'revocation-unavailable',
  'crl-not-found': 'revocation-unavailable',
  'crl-hangs': 'revocation-unavailable',
  'crl-too-large': 'revocation-unavailable',
  'crl-too-large-declared': 'revocation-unavailable',
  'crl-bad-signature': 'revocation-unavailable',
  'not-a-crl': 'revocation-unavailable',
  'ldap-and-file-points': 'revocation-unavailable',
  'no-distribution-point': 'revocation-unavailable',
  untrusted: 'untrusted',
  'bad-signature': 'bad-signature',
  'missing-intermediate-der': 'ok',
  'missing-intermediate-pkcs7': 'ok',
  'missing-intermediate-wrong-certificate': 'no-path',
} as const

export type RevocationCaseName = keyof typeof revocationCaseExpectations

/** One case: the `x5c` (standard base64 DER, leaf first) and the verdict expected. */
export interface RevocationCase {
  readonly x5c: readonly string[]
  readonly expected: (typeof revocationCaseExpectations)[RevocationCaseName]
  /** The common name of the certificate a refusal names (the revoked intermediate for its case). */
  readonly failingCommonName: string
  /** Paths below the origin that must never be requested (untrusted or unverified). */
  readonly forbiddenPaths: readonly string[]
}

/** Serializable material (for Vitest's `provide`). */
export interface RevocationPkiMaterial {
  readonly origin: string
  /** PEM of the trusted root. */
  readonly anchorPem: string
  /** PEM of the current CRLs of root and intermediate (for "crls given" comparisons). */
  readonly crlsPem: readonly string[]
  readonly cases: Readonly<Record<RevocationCaseName, RevocationCase>>
  /** The URL of the intermediate's CRL and the root's CRL, as the certificates name them. */
  readonly intermediateCrlUrl: string
  readonly rootCrlUrl: string
}

export interface RevocationPki extends RevocationPkiMaterial {
  readonly server: RevocationServer
  readonly root: CertificateAuthority
  readonly intermediate: CertificateAuthority
  stop(): Promise<void>
}

const base64 = (der: Uint8Array) => Buffer.from(der).toString('base64')

/**
 * Starts the loopback server and issues the PKI. Dates are relative to the real clock: valid
 * from a day ago for a year; current CRLs from an hour ago for a week; the stale CRL ended an
 * hour ago.
 */
export async function startRevocationPki(): Promise<RevocationPki> {
  const server = await startRevocationServer()
  const { origin } = server
  const url = (path: string) => `${origin}${path}`
  const now = Date.now()
  const notBefore = new Date(now - day)
  const notAfter = new Date(now + 365 * day)
  const current = { thisUpdate: new Date(now - hour), nextUpdate: new Date(now + 7 * day) }

  const root = await createCertificateAuthority({
    name: 'Revocation Root',
    keyType: 'p256',
    notBefore,
    notAfter,
  })
  const intermediate = await createCertificateAuthority({
    name: 'Revocation Intermediate',
    keyType: 'p256',
    issuer: root,
    notBefore,
    notAfter,
    crlDistributionPoints: [url('/root.crl')],
  })
  const revokedIntermediate = await createCertificateAuthority({
    name: 'Revoked Intermediate',
    keyType: 'p256',
    issuer: root,
    notBefore,
    notAfter,
    crlDistributionPoints: [url('/root.crl')],
  })
  const commonNames = new Map<IssuedCertificate, string>()
  const leaf = async (
    commonName: string,
    points: readonly string[] | undefined,
    issuer = intermediate,
  ) => {
    const issued = await issuer.issue({
      commonName,
      sanUris: ['https://client.example.test/app'],
      keyType: 'p256',
      notBefore,
      notAfter,
      ...(points === undefined ? {} : { crlDistributionPoints: points }),
    })
    commonNames.set(issued, commonName)
    return issued
  }

  const good = await leaf('good', [url('/intermediate.crl')])
  const secondPoint = await leaf('second point', [url('/missing.crl'), url('/intermediate.crl')])
  const revoked = await leaf('revoked', [url('/intermediate.crl')])
  const underRevoked = await leaf(
    'under revoked',
    [url('/revoked-intermediate.crl')],
    revokedIntermediate,
  )
  const stale = await leaf('stale', [url('/stale/intermediate.crl')])
  const notFound = await leaf('not found', [url('/missing.crl')])
  const hangs = await leaf('hangs', [url('/hang.crl')])
  const tooLarge = await leaf('too large', [url('/huge.crl')])
  const tooLargeDeclared = await leaf('too large declared', [url('/huge-declared.crl')])
  const badCrlSignature = await leaf('bad CRL signature', [url('/bad-signature/intermediate.crl')])
  const notACrl = await leaf('not a CRL', [url('/not-a-crl.crl')])
  const ldapAndFile = await leaf('ldap and file', [
    'ldap://ldap.example.test/cn=Revocation%20Intermediate?certificateRevocationList',
    'file:///var/crl/intermediate.crl',
  ])
  const noPoint = await leaf('no point', undefined)
  const withoutIntermediate = (caIssuers: string, commonName: string) =>
    intermediate
      .issue({
        commonName,
        sanUris: ['https://client.example.test/app'],
        keyType: 'p256',
        notBefore,
        notAfter,
        crlDistributionPoints: [url('/intermediate.crl')],
        authorityInformationAccess: { caIssuers: [url(caIssuers)] },
      })
      .then((issued) => {
        commonNames.set(issued, commonName)
        // Sent without its intermediate: the x5c is the leaf alone.
        return { ...issued, chainDer: [issued.certificateDer] }
      })
  const missingDer = await withoutIntermediate('/intermediate.cer', 'missing intermediate DER')
  const missingPkcs7 = await withoutIntermediate('/intermediate.p7c', 'missing intermediate PKCS7')
  const missingWrong = await withoutIntermediate('/wrong.cer', 'missing intermediate wrong')
  const badSignature = await intermediate.issue({
    commonName: 'bad signature',
    sanUris: ['https://client.example.test/app'],
    keyType: 'p256',
    notBefore,
    notAfter,
    corruptSignature: true,
    crlDistributionPoints: [url('/unverified/intermediate.crl')],
  })
  commonNames.set(badSignature, 'bad signature')

  const untrustedRoot = await createCertificateAuthority({
    name: 'Revocation Root',
    organizationalUnit: 'Root',
    keyType: 'p256',
    notBefore,
    notAfter,
  })
  const untrustedIntermediate = await createCertificateAuthority({
    name: 'Untrusted Intermediate',
    keyType: 'p256',
    issuer: untrustedRoot,
    notBefore,
    notAfter,
    crlDistributionPoints: [url('/untrusted/root.crl')],
  })
  const untrusted = await leaf(
    'untrusted',
    [url('/untrusted/intermediate.crl')],
    untrustedIntermediate,
  )

  const intermediateCrl = intermediate.crl({ ...current, revokedSerials: [revoked.serialNumber] })
  const rootCrl = root.crl({ ...current, revokedSerials: [revokedIntermediate.serialNumber] })
  server.serve('/intermediate.crl', intermediateCrl.crlDer)
  server.serve('/root.crl', rootCrl.crlDer)
  server.serve('/revoked-intermediate.crl', revokedIntermediate.crl(current).crlDer)
  server.serve(
    '/stale/intermediate.crl',
    intermediate.crl({ thisUpdate: new Date(now - 8 * day), nextUpdate: new Date(now - hour) })
      .crlDer,
  )
  server.serve(
    '/bad-signature/intermediate.crl',
    intermediate.crl({ ...current, corruptSignature: true }).crlDer,
  )
  server.serve('/intermediate.cer', intermediate.certificateDer, 'application/pkix-cert')
  server.serve(
    '/intermediate.p7c',
    certsOnlyPkcs7([revokedIntermediate.certificateDer, intermediate.certificateDer]),
    'application/pkcs7-mime',
  )
  server.serve('/wrong.cer', revokedIntermediate.certificateDer, 'application/pkix-cert')
  server.serve('/not-a-crl.crl', new TextEncoder().encode('<html>not a CRL</html>'))
  for (const path of [
    '/untrusted/root.crl',
    '/untrusted/intermediate.crl',
    '/unverified/intermediate.crl',
  ]) {
    server.serve(path, untrustedIntermediate.crl(current).crlDer)
  }

  const chain = (certificate: IssuedCertificate) => certificate.chainDer.map(base64)
  const entry = (
    name: RevocationCaseName,
    certificate: IssuedCertificate,
    options: { failingCommonName?: string; forbiddenPaths?: readonly string[] } = {},
  ): RevocationCase => ({
    x5c: chain(certificate),
    expected: revocationCaseExpectations[name],
    failingCommonName: options.failingCommonName ?? commonNames.get(certificate) ?? '',
    forbiddenPaths: options.forbiddenPaths ?? [],
  })
  const cases: Record<RevocationCaseName, RevocationCase> = {
    good: entry('good', good),
    'second-point-answers': entry('second-point-answers', secondPoint),
    revoked: entry('revoked', revoked),
    'under-revoked-intermediate': entry('under-revoked-intermediate', underRevoked, {
      failingCommonName: revokedIntermediate.name,
    }),
    'stale-crl': entry('stale-crl', stale),
    'crl-not-found': entry('crl-not-found', notFound),
    'crl-hangs': entry('crl-hangs', hangs),
    'crl-too-large': entry('crl-too-large', tooLarge),
    'crl-too-large-declared': entry('crl-too-large-declared', tooLargeDeclared),
    'crl-bad-signature': entry('crl-bad-signature', badCrlSignature),
    'not-a-crl': entry('not-a-crl', notACrl),
    'ldap-and-file-points': entry('ldap-and-file-points', ldapAndFile),
    'no-distribution-point': entry('no-distribution-point', noPoint),
    untrusted: entry('untrusted', untrusted, {
      failingCommonName: untrustedIntermediate.name,
      forbiddenPaths: ['/untrusted/root.crl', '/untrusted/intermediate.crl'],
    }),
    'bad-signature': entry('bad-signature', badSignature, {
      forbiddenPaths: ['/unverified/intermediate.crl'],
    }),
    'missing-intermediate-der': entry('missing-intermediate-der', missingDer),
    'missing-intermediate-pkcs7': entry('missing-intermediate-pkcs7', missingPkcs7),
    'missing-intermediate-wrong-certificate': entry(
      'missing-intermediate-wrong-certificate',
      missingWrong,
      {
        forbiddenPaths: ['/intermediate.crl'],
      },
    ),
  }
  return {
    origin,
    anchorPem: root.certificatePem,
    crlsPem: [intermediateCrl.crlPem, rootCrl.crlPem],
    cases,
    intermediateCrlUrl: url('/intermediate.crl'),
    rootCrlUrl: url('/root.crl'),
    server,
    root,
    intermediate,
    stop: () => server.stop(),
  }
}
