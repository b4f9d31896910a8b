/**
 * A PKI whose certificates name OCSP responders (authority information access) and no CRL
 * distribution point, answered by `openssl ocsp` (real responders, started on free loopback
 * ports and stopped by PID) behind the loopback revocation server: the server forwards each
 * POST to its responder byte for byte and adds the CORS headers `openssl ocsp` does not send, so
 * a browser page may ask it too. Node only.
 *
 * Community: a P-256 root (the anchor) answering for its intermediates itself (issuer-signed),
 * an intermediate answering for its leaves through a responder it delegated to
 * (id-kp-OCSPSigning), a second intermediate the root says is revoked, and a "stranger" root
 * with the OCSP signing purpose that signs answers for the intermediate without any delegation.
 */
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
  ocspSigningPurpose,
} from '../issuer/index.js'
import {
  type OcspIndexEntry,
  type OpenSslOcspResponder,
  type OpenSslOcspResponderOptions,
  startOpenSslOcspResponder,
} from './openssl-ocsp-responder.js'
import { type RevocationServer, startRevocationServer } from './revocation-server.js'

const hour = 3_600_000
const day = 24 * hour

/** The leaves, by what the responders say of them. */
export type OcspCaseName = 'good' | 'revoked' | 'unknown' | 'undelegated' | 'under-revoked'

/** One leaf: its `x5c` (standard base64 DER, leaf first). */
export interface OcspCase {
  readonly x5c: readonly string[]
}

/** Serializable material (for Vitest's `provide`). */
export interface OcspPkiMaterial {
  readonly origin: string
  /** PEM of the trusted root. */
  readonly anchorPem: string
  readonly cases: Readonly<Record<OcspCaseName, OcspCase>>
  /** The common name of the intermediate the root's responder says is revoked. */
  readonly revokedIntermediateName: string
  /** The responder URLs the certificates name: the root's (issuer-signed) and the intermediate's (delegated). */
  readonly rootResponderUrl: string
  readonly intermediateResponderUrl: string
  /** Minutes from an answer's `thisUpdate` to its `nextUpdate` (`openssl ocsp -nmin`). */
  readonly answerValidityMinutes: number
}

export interface OcspPki extends OcspPkiMaterial {
  readonly server: RevocationServer
  readonly root: CertificateAuthority
  readonly leaves: Readonly<Record<OcspCaseName, IssuedCertificate>>
  stop(): Promise<void>
}

/** The OpenSSL index subject of a test-PKI name. */
const indexSubject = (ou: string, cn: string) => `/C=US/O=fhir-auth Test PKI/OU=${ou}/CN=${cn}`

const base64 = (der: Uint8Array) => Buffer.from(der).toString('base64')

const answerValidityMinutes = 5

/**
 * Starts the loopback server and the four responders, and issues the PKI. Dates are relative
 * to the real clock: valid from a day ago for a year; the revoked ones revoked an hour ago.
 */
export async function startOcspPki(): Promise<OcspPki> {
  const server = await startRevocationServer()
  const responders: OpenSslOcspResponder[] = []
  const stop = async () => {
    await Promise.all(responders.map((responder) => responder.stop()))
    await server.stop()
  }
  try {
    return await issueOcspPki(server, responders, stop)
  } catch (error) {
    await stop()
    throw error
  }
}

async function issueOcspPki(
  server: RevocationServer,
  responders: OpenSslOcspResponder[],
  stop: () => Promise<void>,
): Promise<OcspPki> {
  const url = (path: string) => `${server.origin}${path}`
  const now = Date.now()
  const notBefore = new Date(now - day)
  const notAfter = new Date(now + 365 * day)
  const root = await createCertificateAuthority({
    name: 'OCSP Root',
    keyType: 'p256',
    notBefore,
    notAfter,
  })
  const intermediate = await createCertificateAuthority({
    name: 'OCSP Intermediate',
    keyType: 'p256',
    issuer: root,
    notBefore,
    notAfter,
    authorityInformationAccess: { ocsp: [url('/ocsp/root')] },
  })
  const revokedIntermediate = await createCertificateAuthority({
    name: 'OCSP Revoked Intermediate',
    keyType: 'p256',
    issuer: root,
    notBefore,
    notAfter,
    authorityInformationAccess: { ocsp: [url('/ocsp/root')] },
  })
  const delegated = await intermediate.issue({
    commonName: 'OCSP Responder',
    keyType: 'p256',
    notBefore,
    notAfter,
    extendedKeyUsage: [ocspSigningPurpose],
  })
  // A key the intermediate never delegated to: its own root, with the OCSP signing purpose.
  const stranger = await createCertificateAuthority({
    name: 'OCSP Stranger',
    keyType: 'p256',
    notBefore,
    notAfter,
    extendedKeyUsage: [ocspSigningPurpose],
  })
  const leaf = (name: string, path: string, issuer = intermediate) =>
    issuer.issue({
      commonName: name,
      sanUris: ['https://client.example.test/app'],
      keyType: 'p256',
      notBefore,
      notAfter,
      authorityInformationAccess: { ocsp: [url(path)] },
    })
  const leaves: Record<OcspCaseName, IssuedCertificate> = {
    good: await leaf('good', '/ocsp/intermediate'),
    revoked: await leaf('revoked', '/ocsp/intermediate'),
    unknown: await leaf('unknown', '/ocsp/intermediate'),
    undelegated: await leaf('undelegated', '/ocsp/stranger'),
    'under-revoked': await leaf('under revoked', '/ocsp/revoked-intermediate', revokedIntermediate),
  }
  const revokedAt = new Date(now - hour)
  const entry = (
    certificate: IssuedCertificate,
    ou: string,
    cn: string,
    revoked = false,
  ): OcspIndexEntry => ({
    certificate,
    subject: indexSubject(ou, cn),
    notAfter,
    revokedAt: revoked ? revokedAt : undefined,
  })
  const start = async (path: string, options: OpenSslOcspResponderOptions) => {
    const responder = await startOpenSslOcspResponder({
      ...options,
      validityMinutes: answerValidityMinutes,
    })
    responders.push(responder)
    server.answerPosts(path, (body) => forward(responder.url, body))
  }
  await start('/ocsp/root', {
    caPem: root.certificatePem,
    signerPem: root.certificatePem,
    signerKeyPem: root.privateKeyPem,
    entries: [
      entry(intermediate, 'Intermediate', intermediate.name),
      entry(revokedIntermediate, 'Intermediate', revokedIntermediate.name, true),
    ],
  })
  // `unknown` is in no index: the responder answers unknown for it.
  const intermediateEntries = [
    entry(leaves.good, 'Leaf', 'good'),
    entry(leaves.revoked, 'Leaf', 'revoked', true),
    entry(leaves.undelegated, 'Leaf', 'undelegated'),
  ]
  await start('/ocsp/intermediate', {
    caPem: intermediate.certificatePem,
    signerPem: delegated.certificatePem,
    signerKeyPem: delegated.privateKeyPem,
    entries: intermediateEntries,
  })
  await start('/ocsp/stranger', {
    caPem: intermediate.certificatePem,
    signerPem: stranger.certificatePem,
    signerKeyPem: stranger.privateKeyPem,
    entries: intermediateEntries,
  })
  await start('/ocsp/revoked-intermediate', {
    caPem: revokedIntermediate.certificatePem,
    signerPem: revokedIntermediate.certificatePem,
    signerKeyPem: revokedIntermediate.privateKeyPem,
    entries: [entry(leaves['under-revoked'], 'Leaf', 'under revoked')],
  })
  const x5c = (name: OcspCaseName): OcspCase => ({ x5c: leaves[name].chainDer.map(base64) })
  const cases: Record<OcspCaseName, OcspCase> = {
    good: x5c('good'),
    revoked: x5c('revoked'),
    unknown: x5c('unknown'),
    undelegated: x5c('undelegated'),
    'under-revoked': x5c('under-revoked'),
  }
  return {
    origin: server.origin,
    anchorPem: root.certificatePem,
    cases,
    revokedIntermediateName: revokedIntermediate.name,
    rootResponderUrl: url('/ocsp/root'),
    intermediateResponderUrl: url('/ocsp/intermediate'),
    answerValidityMinutes,
    server,
    root,
    leaves,
    stop,
  }
}

/** POSTs an OCSP request to `openssl ocsp` and returns its answer, byte for byte. */
async function forward(responderUrl: string, body: Uint8Array): Promise<Uint8Array> {
  const response = await fetch(responderUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/ocsp-request' },
    body: Buffer.from(body),
  })
  return new Uint8Array(await response.arrayBuffer())
}
