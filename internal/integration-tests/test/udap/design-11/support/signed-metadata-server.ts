/**
 * A UDAP server of our own for DESIGN §11's first paragraph: its `signed_metadata` is signed by
 * a server certificate whose chain we build case by case, and it is served through the one fake
 * fetch (`fakeRoutes`), so every case differs from the control in exactly one certificate.
 */
import { createSign, randomUUID } from 'node:crypto'
import { Client, type FetchLike, silentLogger } from '@fhir-auth/client'
import type {
  CertificateAuthority,
  IssuedCertificate,
  TestKeyPair,
} from '@fhir-auth/test-pki/issuer'
import { fakeRoutes, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { now } from './bad-chains.js'

export const serverBaseUrl = 'https://fhir.example.test/r4'
export const tokenEndpoint = 'https://fhir.example.test/token'
const registrationEndpoint = 'https://fhir.example.test/register'

/** What a client needs to run discovery against one case. */
export interface ServerCase {
  readonly fetch: FetchLike
  readonly trustedAnchors: readonly Uint8Array[]
  readonly crls: readonly Uint8Array[]
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url')

function signedMetadata(chainDer: readonly Uint8Array[], key: TestKeyPair): string {
  const iat = Math.floor(now().getTime() / 1000)
  const header = { alg: 'RS256', x5c: chainDer.map((der) => Buffer.from(der).toString('base64')) }
  const claims = {
    iss: serverBaseUrl,
    sub: serverBaseUrl,
    iat,
    exp: iat + 3600,
    jti: randomUUID(),
    token_endpoint: tokenEndpoint,
    registration_endpoint: registrationEndpoint,
  }
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`
  const signature = createSign('RSA-SHA256').update(input).sign(key.privateKey)
  return `${input}.${base64url(signature)}`
}

/**
 * Serves discovery signed by `server` (an RSA leaf), with `chainDer` as `x5c` (default: the
 * issuer's chain), trusting `root`, with a current CRL from every CA in `authorities`.
 */
export function serverCase(options: {
  readonly root: CertificateAuthority
  readonly authorities: readonly CertificateAuthority[]
  readonly server: IssuedCertificate
  readonly chainDer?: readonly Uint8Array[]
  readonly crlThisUpdate: Date
  readonly crlNextUpdate: Date
}): ServerCase {
  const jwt = signedMetadata(options.chainDer ?? options.server.chainDer, options.server.keyPair)
  const routes = fakeRoutes({
    [`${serverBaseUrl}/.well-known/udap`]: () =>
      jsonResponse({
        udap_versions_supported: ['1'],
        udap_profiles_supported: ['udap_dcr', 'udap_authn'],
        udap_authorization_extensions_supported: ['hl7-b2b'],
        udap_authorization_extensions_required: [],
        udap_certifications_supported: [],
        udap_certifications_required: [],
        grant_types_supported: ['client_credentials'],
        scopes_supported: ['system/*.rs'],
        token_endpoint: tokenEndpoint,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['RS256', 'ES256', 'ES384'],
        registration_endpoint: registrationEndpoint,
        registration_endpoint_jwt_signing_alg_values_supported: ['RS256', 'ES256', 'ES384'],
        signed_metadata: jwt,
      }),
  })
  return {
    fetch: routes.fetch,
    trustedAnchors: [options.root.certificateDer],
    crls: options.authorities.map(
      (authority) =>
        authority.crl({ thisUpdate: options.crlThisUpdate, nextUpdate: options.crlNextUpdate })
          .crlDer,
    ),
  }
}

/** A UDAP client (no identity needed: discovery only) that fetches through `serverCase`. */
export function discoveryClient(server: ServerCase): Client {
  return new Client(
    { baseUrl: serverBaseUrl, scopes: ['system/*.rs'] },
    { protocol: 'udap', fetch: server.fetch, logger: silentLogger, now },
  )
}

/** The first `reason` on the error or its `cause` chain. */
export function reasonOf(error: unknown): unknown {
  let current = error as { reason?: unknown; cause?: unknown } | undefined
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    if (typeof current.reason === 'string') return current.reason
    current = current.cause as typeof current
  }
  return undefined
}
