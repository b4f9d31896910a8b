/**
 * A PKI whose certificates name OCSP responders (AIA `id-ad-ocsp`) on a loopback HTTP server,
 * each answered by a real `openssl ocsp` (started on a free port, stopped by PID) behind a proxy
 * path of that server: the material of the OCSP tests of issue 30. Node only.
 *
 * A P-256 root (the anchor) answers for its intermediates itself (`/ocsp/root`); the
 * intermediate delegates to a responder certificate with id-kp-OCSPSigning
 * (`/ocsp/intermediate`); `/ocsp/stranger` signs with a key nobody delegated to. The proxy can
 * tamper with the request nonce before openssl sees it (openssl copies the request's nonce into
 * its answer), so a test gets an echo of another nonce, or no nonce at all. The server adds the
 * CORS headers `openssl ocsp` does not send, so a browser page may ask it too; the serializable
 * part ({@link OcspPkiMaterial}) is what a Vitest global setup hands to browser tests.
 */
import {
  decodeDerOid,
  encodeDer,
  encodeDerOid,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
} from '@fhir-auth/core/backend'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
  ocspSigningPurpose,
} from '../issuer/index.js'
import {
  type OpenSslOcspResponder,
  type OpenSslOcspResponderOptions,
  startOpenSslOcspResponder,
} from './openssl-ocsp-responder.js'
import { type RevocationServer, startRevocationServer } from './revocation-server.js'

const hour = 3_600_000
const day = 24 * hour

/** `id-pkix-ocsp-nonce`. */
const nonceOid = '1.3.6.1.5.5.7.48.1.2'

/**
 * What the proxy does with the nonce of a request before openssl answers it: `echo` forwards the
 * request as sent (openssl echoes its nonce), `other` puts another random nonce in its place (the
 * answer echoes a nonce the client never sent), `none` takes the nonce out (the answer has none,
 * like a pre-produced one).
 */
export type OcspNonceMode = 'echo' | 'other' | 'none'

/** The responder paths of the PKI, below its server's origin. */
export type OcspResponderPath =
  | '/ocsp/root'
  | '/ocsp/intermediate'
  | '/ocsp/stranger'
  | '/ocsp/revoked-intermediate'

export type OcspLeafName =
  | 'good'
  | 'revoked'
  | 'unknown'
  | 'undelegated'
  | 'underRevoked'
  | 'server'
  | 'revokedServer'

/** The leaves of the shared revocation cases, by what the responders say of them. */
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
  readonly intermediate: CertificateAuthority
  /**
   * Leaves under the intermediate (`underRevoked` under the revoked one). `server` and
   * `revokedServer` (RSA keys) have the SAN URI {@link OcspPki.fhirBaseUrl} and name the intermediate's
   * certificate at `/intermediate.cer` (AIA caIssuers); the others `https://client.example.test/app`.
   */
  readonly leaves: Readonly<Record<OcspLeafName, IssuedCertificate>>
  /** `{origin}/fhir`: the base URL the `server` leaves are for. */
  readonly fhirBaseUrl: string
  /** `nextUpdate` − `thisUpdate` of every answer, in minutes (`openssl ocsp -nmin`). */
  readonly validityMinutes: number
  /** The request bodies POSTed to `path`, oldest first, as the client sent them. */
  requests(path: OcspResponderPath): readonly Uint8Array[]
  /** Sets what the proxy of `path` does with the nonce of the requests that follow. */
  setNonceMode(path: OcspResponderPath, mode: OcspNonceMode): void
  stop(): Promise<void>
}

/** The OpenSSL index subject of a test-PKI name. */
const indexSubject = (ou: string, cn: string) => `/C=US/O=fhir-auth Test PKI/OU=${ou}/CN=${cn}`

/**
 * Starts the loopback server and the four responders, and issues the PKI. Dates are relative to
 * the real clock: certificates valid from a day ago for a year; revocations an hour ago;
 * answers valid for `validityMinutes` (default 60) from when they are made.
 */
export async function startOcspPki(options: { validityMinutes?: number } = {}): Promise<OcspPki> {
  const validityMinutes = options.validityMinutes ?? 60
  const server = await startRevocationServer()
  const url = (path: string) => `${server.origin}${path}`
  const fhirBaseUrl = url('/fhir')
  const now = Date.now()
  const notBefore = new Date(now - day)
  const notAfter = new Date(now + 365 * day)
  const revokedAt = new Date(now - hour)
  const authority = (name: string, issuer?: CertificateAuthority) =>
    createCertificateAuthority({
      name,
      keyType: 'p256',
      notBefore,
      notAfter,
      ...(issuer === undefined
        ? {}
        : { issuer, authorityInformationAccess: { ocsp: [url('/ocsp/root')] } }),
    })
  const root = await authority('OCSP Root')
  const intermediate = await authority('OCSP Intermediate', root)
  const revokedIntermediate = await authority('OCSP Revoked Intermediate', root)
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
  const leaf = (commonName: string, responder: OcspResponderPath, issuer = intermediate) =>
    issuer.issue({
      commonName,
      sanUris: ['https://client.example.test/app'],
      keyType: 'p256',
      notBefore,
      notAfter,
      authorityInformationAccess: { ocsp: [url(responder)] },
    })
  const serverLeaf = (commonName: string) =>
    intermediate.issue({
      commonName,
      sanUris: [fhirBaseUrl],
      // RSA: UDAP signed_metadata is RS256 (IG STU2 §2.3).
      keyType: 'rsa2048',
      notBefore,
      notAfter,
      authorityInformationAccess: {
        ocsp: [url('/ocsp/intermediate')],
        caIssuers: [url('/intermediate.cer')],
      },
    })
  const leaves: Record<OcspLeafName, IssuedCertificate> = {
    good: await leaf('good', '/ocsp/intermediate'),
    revoked: await leaf('revoked', '/ocsp/intermediate'),
    unknown: await leaf('unknown', '/ocsp/intermediate'),
    undelegated: await leaf('undelegated', '/ocsp/stranger'),
    underRevoked: await leaf('under revoked', '/ocsp/revoked-intermediate', revokedIntermediate),
    server: await serverLeaf('OCSP server'),
    revokedServer: await serverLeaf('OCSP revoked server'),
  }
  server.serve('/intermediate.cer', intermediate.certificateDer, 'application/pkix-cert')

  const entry = (name: OcspLeafName, revoked = false) => ({
    certificate: leaves[name],
    subject: indexSubject('Leaf', name),
    notAfter,
    revokedAt: revoked ? revokedAt : undefined,
  })
  const intermediateEntries = [
    entry('good'),
    entry('revoked', true),
    entry('undelegated'),
    entry('server'),
    entry('revokedServer', true),
  ]
  const responders: OpenSslOcspResponder[] = []
  const requests = new Map<OcspResponderPath, Uint8Array[]>()
  const nonceModes = new Map<OcspResponderPath, OcspNonceMode>()
  const start = async (
    path: OcspResponderPath,
    responderOptions: Omit<OpenSslOcspResponderOptions, 'validityMinutes'>,
  ) => {
    const responder = await startOpenSslOcspResponder({ ...responderOptions, validityMinutes })
    responders.push(responder)
    requests.set(path, [])
    server.answerPosts(path, async (body) => {
      requests.get(path)?.push(body)
      const response = await fetch(responder.url, {
        method: 'POST',
        headers: { 'content-type': 'application/ocsp-request' },
        body: Buffer.from(withNonce(body, nonceModes.get(path) ?? 'echo')),
      })
      return new Uint8Array(await response.arrayBuffer())
    })
  }
  try {
    await start('/ocsp/root', {
      caPem: root.certificatePem,
      signerPem: root.certificatePem,
      signerKeyPem: root.privateKeyPem,
      entries: [
        {
          certificate: intermediate,
          subject: indexSubject('Intermediate', intermediate.name),
          notAfter,
        },
        {
          certificate: revokedIntermediate,
          subject: indexSubject('Intermediate', revokedIntermediate.name),
          notAfter,
          revokedAt,
        },
      ],
    })
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
      entries: [entry('underRevoked')],
    })
  } catch (error) {
    await Promise.all(responders.map((responder) => responder.stop()))
    await server.stop()
    throw error
  }
  const x5c = (name: OcspLeafName): OcspCase => ({
    x5c: leaves[name].chainDer.map((der) => Buffer.from(der).toString('base64')),
  })
  return {
    origin: server.origin,
    anchorPem: root.certificatePem,
    cases: {
      good: x5c('good'),
      revoked: x5c('revoked'),
      unknown: x5c('unknown'),
      undelegated: x5c('undelegated'),
      'under-revoked': x5c('underRevoked'),
    },
    rootResponderUrl: url('/ocsp/root'),
    intermediateResponderUrl: url('/ocsp/intermediate'),
    answerValidityMinutes: validityMinutes,
    server,
    root,
    intermediate,
    revokedIntermediateName: revokedIntermediate.name,
    leaves,
    fhirBaseUrl,
    validityMinutes,
    requests: (path) => requests.get(path) ?? [],
    setNonceMode: (path, mode) => void nonceModes.set(path, mode),
    stop: async () => {
      await Promise.all(responders.map((responder) => responder.stop()))
      await server.stop()
    },
  }
}

/**
 * The request with its `requestExtensions` replaced: as sent (`echo`), with one nonce
 * extension of 32 other random octets (`other`), or with none (`none`).
 */
function withNonce(request: Uint8Array, mode: OcspNonceMode): Uint8Array {
  if (mode === 'echo') return request
  const [tbsRequest] = readDerChildren(readDerDocument(request, 'invalid-crl'), 'invalid-crl')
  if (tbsRequest === undefined) return request
  const fields = readDerChildren(tbsRequest, 'invalid-crl')
    .filter((field) => field.tag !== 0xa2)
    .map((field) => field.bytes)
  if (mode === 'none') return encodeDerSequence(encodeDerSequence(...fields))
  const nonce = encodeDer(0x04, crypto.getRandomValues(new Uint8Array(32)))
  const extensions = encodeDerSequence(
    encodeDerSequence(encodeDerOid(nonceOid), encodeDer(0x04, nonce)),
  )
  return encodeDerSequence(encodeDerSequence(...fields, encodeDer(0xa2, extensions)))
}

/**
 * The nonce octets (the `extnValue` content of `id-pkix-ocsp-nonce`) of an OCSP request, or
 * `undefined` when it has none: for tests that check what the client sent.
 */
export function ocspRequestNonceOf(request: Uint8Array): Uint8Array | undefined {
  const [tbsRequest] = readDerChildren(readDerDocument(request, 'invalid-crl'), 'invalid-crl')
  if (tbsRequest === undefined) return undefined
  const extensions = readDerChildren(tbsRequest, 'invalid-crl').find((field) => field.tag === 0xa2)
  const [list] = extensions === undefined ? [] : readDerChildren(extensions, 'invalid-crl')
  for (const extension of list === undefined ? [] : readDerChildren(list, 'invalid-crl')) {
    const [oid, value] = readDerChildren(extension, 'invalid-crl')
    if (oid !== undefined && decodeDerOid(oid.content, 'invalid-crl') === nonceOid) {
      return value?.content
    }
  }
  return undefined
}
