/**
 * Generated cases for the differential test of OCSP (RFC 6960) answers against the
 * `openssl ocsp` client: each case is a root (the anchor), an intermediate and a leaf whose AIA
 * names a real `openssl ocsp` responder, started for the case on a free loopback port, that
 * answers good, revoked or unknown (not in its index), signed by the intermediate itself, by a
 * responder it delegated to (id-kp-OCSPSigning), or by a key it did not delegate to (no
 * OCSPSigning purpose, delegated by the root instead, expired, a stranger, the root), with or
 * without its certificate in the answer, naming the responder by name or by key, with one of
 * three digests. The intermediate's status comes from the root's CRL, given to the validation.
 *
 * Deterministic like {@link generateRevocationCorpus}: every choice comes from a
 * {@link seededRandom} of the seed and case number, keys are derived from the seed. Node only.
 */
import {
  type CertificateAuthority,
  createCertificateAuthority,
  deriveTestKeyPair,
  type IssuedCertificate,
  ocspSigningPurpose,
} from '../issuer/index.js'
import { startOpenSslOcspResponder } from '../revocation/openssl-ocsp-responder.js'
import { seededRandom } from './seeded-random.js'

/** Who signs the answers for the leaf. */
export type OcspSigner =
  | 'issuer'
  | 'delegated'
  | 'delegated-without-purpose'
  | 'delegated-by-root'
  | 'delegated-expired'
  | 'stranger'
  | 'root'

/** The signers whose answers RFC 6960 §4.2.2.2 authorizes for the leaf. */
export const authorizedOcspSigners: readonly OcspSigner[] = ['issuer', 'delegated']

/** What the responder's index says of the leaf. */
export type OcspLeafStatus = 'good' | 'revoked' | 'unknown'

/** One case, its responder running until {@link OcspCorpusCase.stop}. */
export interface OcspCorpusCase {
  /** `ocsp-0042`. */
  readonly name: string
  /** What was varied, as `choice` words (`signer:delegated`, `status:revoked`, `no-certificates`, …). */
  readonly tags: readonly string[]
  readonly signer: OcspSigner
  readonly status: OcspLeafStatus
  /** Whether the answer carries the signer's certificate (not `-resp_no_certs`). */
  readonly answerCarriesCertificate: boolean
  /** The leaf, then the intermediate (an `x5c`). */
  readonly chainDer: readonly Uint8Array[]
  readonly anchorPem: string
  readonly issuerPem: string
  readonly leafPem: string
  /** The root's current CRL (PEM), which covers the intermediate. */
  readonly rootCrlPem: string
  /** The responder URL the leaf's AIA names. */
  readonly responderUrl: string
  stop(): Promise<void>
}

const hour = 3_600_000
const day = 24 * hour

/** The OpenSSL index subject of a test-PKI name. */
const indexSubject = (ou: string, cn: string) => `/C=US/O=fhir-auth Test PKI/OU=${ou}/CN=${cn}`

/** Issues case `index` of `seed` and starts its responder; dates are around `now`. */
export async function startOcspCorpusCase(options: {
  readonly seed: string
  readonly index: number
  readonly now: Date
}): Promise<OcspCorpusCase> {
  const { seed, index, now } = options
  const random = seededRandom(`${seed}/${index}`)
  const name = `ocsp-${String(index).padStart(4, '0')}`
  const slot = index % 7
  const key = (role: string, keyType: 'p256' | 'p384' = 'p256') =>
    deriveTestKeyPair(`${seed}/${role}/${slot}/${keyType}`, keyType)
  const notBefore = new Date(now.getTime() - day)
  const notAfter = new Date(now.getTime() + 365 * day)
  const signer = random.weighted<OcspSigner>([
    ['issuer', 30],
    ['delegated', 30],
    ['delegated-without-purpose', 8],
    ['delegated-by-root', 8],
    ['delegated-expired', 8],
    ['stranger', 8],
    ['root', 8],
  ])
  const status = random.weighted<OcspLeafStatus>([
    ['good', 50],
    ['revoked', 30],
    ['unknown', 20],
  ])
  const answerCarriesCertificate = !random.chance(0.15)
  const byKey = random.chance(0.3)
  const digest = random.pick(['sha256', 'sha384', 'sha512'] as const)
  const tags = [`signer:${signer}`, `status:${status}`, `digest:${digest}`]
  if (!answerCarriesCertificate) tags.push('no-certificates')
  if (byKey) tags.push('responder-by-key')

  const root = await createCertificateAuthority({
    name: `OCSP Corpus ${index} Root`,
    serial: random.serial(),
    keyPair: key('root', random.pick(['p256', 'p384'] as const)),
    notBefore,
    notAfter,
  })
  const intermediate = await createCertificateAuthority({
    name: `OCSP Corpus ${index} Intermediate`,
    serial: random.serial(),
    keyPair: key('intermediate', random.pick(['p256', 'p384'] as const)),
    issuer: root,
    notBefore,
    notAfter,
  })
  const responderKeyType = random.pick(['p256', 'p384'] as const)
  const responder = (
    issuer: CertificateAuthority,
    profile: { purpose: boolean; notBefore: Date; notAfter: Date },
  ) =>
    issuer.issue({
      commonName: `OCSP Corpus ${index} Responder`,
      serial: random.serial(),
      keyPair: key('responder', responderKeyType),
      notBefore: profile.notBefore,
      notAfter: profile.notAfter,
      ...(profile.purpose ? { extendedKeyUsage: [ocspSigningPurpose] } : {}),
    })
  const current = { notBefore, notAfter }
  const signing: IssuedCertificate = await {
    issuer: async () => intermediate,
    delegated: () => responder(intermediate, { purpose: true, ...current }),
    'delegated-without-purpose': () => responder(intermediate, { purpose: false, ...current }),
    'delegated-by-root': () => responder(root, { purpose: true, ...current }),
    'delegated-expired': () =>
      responder(intermediate, {
        purpose: true,
        notBefore: new Date(now.getTime() - 60 * day),
        notAfter: new Date(now.getTime() - 30 * day),
      }),
    stranger: () =>
      createCertificateAuthority({
        name: `OCSP Corpus ${index} Stranger`,
        serial: random.serial(),
        keyPair: key('stranger', responderKeyType),
        notBefore,
        notAfter,
        extendedKeyUsage: [ocspSigningPurpose],
      }),
    root: async () => root,
  }[signer]()

  const leafSerial = random.serial()
  const leafName = `OCSP Corpus ${index} Leaf`
  const started = await startOpenSslOcspResponder({
    caPem: intermediate.certificatePem,
    signerPem: signing.certificatePem,
    signerKeyPem: signing.privateKeyPem,
    entries:
      status === 'unknown'
        ? []
        : [
            {
              certificate: { serialNumber: leafSerial.toString(16) },
              subject: indexSubject('Leaf', leafName),
              notAfter,
              revokedAt: status === 'revoked' ? new Date(now.getTime() - hour) : undefined,
            },
          ],
    extraArguments: [
      '-rmd',
      digest,
      ...(answerCarriesCertificate ? [] : ['-resp_no_certs']),
      ...(byKey ? ['-resp_key_id'] : []),
    ],
  })
  try {
    const leaf = await intermediate.issue({
      commonName: leafName,
      serial: leafSerial,
      sanUris: ['https://client.example.test/app'],
      keyPair: key('leaf'),
      notBefore,
      notAfter,
      authorityInformationAccess: { ocsp: [started.url] },
    })
    return {
      name,
      tags,
      signer,
      status,
      answerCarriesCertificate,
      chainDer: leaf.chainDer,
      anchorPem: root.certificatePem,
      issuerPem: intermediate.certificatePem,
      leafPem: leaf.certificatePem,
      rootCrlPem: root.crl({
        thisUpdate: new Date(now.getTime() - hour),
        nextUpdate: new Date(now.getTime() + 7 * day),
      }).crlPem,
      responderUrl: started.url,
      stop: () => started.stop(),
    }
  } catch (error) {
    await started.stop()
    throw error
  }
}
