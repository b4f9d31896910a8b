/**
 * A UDAP discovery document of our own on a loopback test server: `signed_metadata` (RS256)
 * signed by a certificate the test issued, `x5c` that certificate alone, for tests whose server
 * chain must carry extensions (AIA, CRL distribution points) no sandbox certificate has.
 */
import { randomUUID, sign } from 'node:crypto'
import { Client, silentLogger } from '@fhir-auth/client'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
} from '@fhir-auth/test-pki/issuer'
import { type RevocationServer, startRevocationServer } from '@fhir-auth/test-pki/revocation'

/** The FHIR base URL of the discovery document served under `/<name>`. */
export function loopbackBaseUrl(server: RevocationServer, name: string): string {
  return `${server.origin}/${name}/fhir`
}

/**
 * Serves `/<name>/fhir/.well-known/udap` on `server`: a client_credentials server whose
 * signed_metadata is signed by `leaf` (an RSA key; its SAN must be the base URL), valid an hour.
 */
export function serveLoopbackDiscovery(
  server: RevocationServer,
  name: string,
  leaf: IssuedCertificate,
): void {
  serveUdapDiscovery(server, loopbackBaseUrl(server, name), leaf)
}

/**
 * Serves `<baseUrl>/.well-known/udap` on `server` (`baseUrl` on its origin, ending in `/fhir`;
 * the token and registration endpoints beside that `/fhir`): `signed_metadata` (RS256) by
 * `leaf`, `x5c` the leaf alone, valid for `lifetimeSeconds` from a minute ago.
 */
export function serveUdapDiscovery(
  server: RevocationServer,
  baseUrl: string,
  leaf: IssuedCertificate,
  lifetimeSeconds = 3600,
): void {
  const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url')
  const endpoint = (path: string) => `${baseUrl.replace(/\/fhir$/, '')}${path}`
  const iat = Math.floor(Date.now() / 1000) - 60
  const header = { alg: 'RS256', x5c: [Buffer.from(leaf.certificateDer).toString('base64')] }
  const claims = {
    iss: baseUrl,
    sub: baseUrl,
    iat,
    exp: iat + lifetimeSeconds,
    jti: randomUUID(),
    token_endpoint: endpoint('/token'),
    registration_endpoint: endpoint('/register'),
  }
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`
  const jwt = `${input}.${base64url(sign('sha256', Buffer.from(input), leaf.privateKeyPem))}`
  const document = {
    udap_versions_supported: ['1'],
    udap_profiles_supported: ['udap_dcr', 'udap_authn'],
    udap_authorization_extensions_supported: ['hl7-b2b'],
    udap_authorization_extensions_required: [],
    udap_certifications_supported: [],
    udap_certifications_required: [],
    grant_types_supported: ['client_credentials'],
    scopes_supported: ['system/*.rs'],
    token_endpoint: endpoint('/token'),
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['RS256', 'ES256'],
    registration_endpoint: endpoint('/register'),
    registration_endpoint_jwt_signing_alg_values_supported: ['RS256', 'ES256'],
    signed_metadata: jwt,
  }
  server.serve(
    `${new URL(baseUrl).pathname}/.well-known/udap`,
    new TextEncoder().encode(JSON.stringify(document)),
    'application/json',
  )
}

/**
 * A loopback server whose discovery under `/crl` is signed by a leaf naming one CRL
 * distribution point, `/root.crl`: a current CRL of the root (valid from an hour ago for two
 * hours), and no OCSP responder.
 */
export async function startCrlDiscoveryServer(
  rootName: string,
): Promise<{ readonly server: RevocationServer; readonly root: CertificateAuthority }> {
  const hour = 3_600_000
  const server = await startRevocationServer()
  const now = Date.now()
  const root = await createCertificateAuthority({
    name: rootName,
    keyType: 'p256',
    notBefore: new Date(now - hour),
    notAfter: new Date(now + 24 * hour),
  })
  const leaf = await root.issue({
    commonName: 'Server with a CRL',
    sanUris: [loopbackBaseUrl(server, 'crl')],
    keyType: 'rsa2048',
    crlDistributionPoints: [`${server.origin}/root.crl`],
  })
  server.serve(
    '/root.crl',
    root.crl({ thisUpdate: new Date(now - hour), nextUpdate: new Date(now + hour) }).crlDer,
  )
  serveLoopbackDiscovery(server, 'crl', leaf)
  return { server, root }
}

/** A UDAP client (discovery only, no identity) of the document served under `/<name>`. */
export function loopbackDiscoveryClient(server: RevocationServer, name: string): Client {
  return new Client(
    {
      baseUrl: loopbackBaseUrl(server, name),
      scopes: ['system/*.rs'],
      allowInsecureLocalhost: true,
    },
    { protocol: 'udap', logger: silentLogger },
  )
}
