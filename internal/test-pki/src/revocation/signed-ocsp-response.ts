/**
 * An OCSP answer signed in the test, for what `openssl ocsp` cannot send: response or
 * SingleResponse extensions of the test's choosing (an unknown critical one). Node only.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6960#section-4.2.1
 */
import { sign } from 'node:crypto'
import {
  concatBytes,
  type DerElement,
  encodeDer,
  encodeDerOid,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
} from '@fhir-auth/core/backend'
import type { RawExtension } from '../issuer/index.js'

/** What {@link signedOcspResponse} answers. */
export interface SignedOcspResponseOptions {
  /** The `OCSPRequest` DER as the client sent it: its first CertID is answered. */
  readonly request: Uint8Array
  /** The signer: a P-256 key (ECDSA with SHA-256) and its subject Name (the responderID). */
  readonly signer: { readonly privateKeyPem: string; readonly subjectDer: Uint8Array }
  readonly thisUpdate: Date
  readonly nextUpdate: Date
  readonly responseExtensions?: readonly RawExtension[] | undefined
  readonly singleExtensions?: readonly RawExtension[] | undefined
}

const generalizedTime = (date: Date) =>
  encodeDer(0x18, new TextEncoder().encode(`${date.toISOString().replace(/[-:T]|\.\d+/g, '')}`))

function extensions(tag: number, list: readonly RawExtension[]): Uint8Array {
  const encoded = list.map((extension) =>
    encodeDerSequence(
      encodeDerOid(extension.oid),
      ...(extension.critical ? [encodeDer(0x01, Uint8Array.of(0xff))] : []),
      encodeDer(0x04, extension.value),
    ),
  )
  return encodeDer(tag, encodeDerSequence(...encoded))
}

/** The first `CertID` of an `OCSPRequest`. */
function requestedCertificateId(request: Uint8Array): Uint8Array {
  const children = (element: DerElement | undefined) => {
    if (element === undefined) throw new Error('not an OCSP request the client sends')
    return readDerChildren(element, 'invalid-crl')
  }
  const [tbsRequest] = children(readDerDocument(request, 'invalid-crl'))
  const requestList = children(tbsRequest).find((field) => field.tag === 0x30)
  const [certificateId] = children(children(requestList)[0])
  if (certificateId === undefined) throw new Error('the OCSP request names no certificate')
  return certificateId.bytes
}

/** A `successful` OCSPResponse saying `good` for the request's certificate, signed by `signer`. */
export function signedOcspResponse(options: SignedOcspResponseOptions): Uint8Array {
  const single = encodeDerSequence(
    requestedCertificateId(options.request),
    encodeDer(0x80, new Uint8Array()),
    generalizedTime(options.thisUpdate),
    encodeDer(0xa0, generalizedTime(options.nextUpdate)),
    ...(options.singleExtensions === undefined ? [] : [extensions(0xa1, options.singleExtensions)]),
  )
  const tbs = encodeDerSequence(
    encodeDer(0xa1, options.signer.subjectDer),
    generalizedTime(options.thisUpdate),
    encodeDerSequence(single),
    ...(options.responseExtensions === undefined
      ? []
      : [extensions(0xa1, options.responseExtensions)]),
  )
  const signature = sign('sha256', tbs, options.signer.privateKeyPem)
  const basic = encodeDerSequence(
    tbs,
    encodeDerSequence(encodeDerOid('1.2.840.10045.4.3.2')),
    encodeDer(0x03, concatBytes(Uint8Array.of(0), new Uint8Array(signature))),
  )
  return encodeDerSequence(
    encodeDer(0x0a, Uint8Array.of(0)),
    encodeDer(
      0xa0,
      encodeDerSequence(encodeDerOid('1.3.6.1.5.5.7.48.1.1'), encodeDer(0x04, basic)),
    ),
  )
}
