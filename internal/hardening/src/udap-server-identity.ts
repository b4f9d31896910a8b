import { randomUUID, sign } from 'node:crypto'
import { base64Encode, base64UrlEncode, base64UrlEncodeText } from '@fhir-auth/core'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
} from '@fhir-auth/test-pki/issuer'
import { type JsonNode, renderJson, toJsonNode } from './json-text.js'

/**
 * A UDAP server's PKI made for hostile-input tests: a P-384 root and intermediate, an RSA 2048
 * server certificate whose SAN URI is the FHIR base URL, current CRLs, and a client certificate
 * from the same intermediate. Tests can sign *any* header and claims with the server key, so
 * hostile `signed_metadata` reaches the claim checks behind the signature check.
 */
export interface UdapServerIdentity {
  readonly baseUrl: string
  /** The trust inputs a client needs: the root as PEM, the root's and intermediate's CRLs as PEM. */
  readonly trust: { readonly trustedAnchors: readonly string[]; readonly crls: readonly string[] }
  /** `x5c` of the server: leaf and intermediate, standard base64 DER. */
  readonly x5c: readonly string[]
  readonly server: IssuedCertificate
  /** A client certificate (P-256, SAN {@link clientUri}) and its key, for registrations and tokens. */
  readonly client: IssuedCertificate
  readonly clientUri: string
  readonly intermediate: CertificateAuthority
  /** Valid signed-metadata claims at `now`: `iss = sub = baseUrl`, one hour of validity, the endpoints. */
  validClaims(now: Date): Record<string, unknown>
  /** Valid RS256 protected header: `alg`, `x5c`. */
  validHeader(): Record<string, unknown>
  /** Signs the JSON texts of a header and claims with the server key (RS256), whatever they say. */
  signTexts(headerText: string, claimsText: string): string
  /** Signs header and claims nodes (hostile ones included) with the server key. */
  signNodes(header: JsonNode, claims: JsonNode): string
  /** A valid unsigned discovery document at `now`, with valid `signed_metadata`. */
  validDocument(now: Date): Record<string, unknown>
}

/** How long the test PKI is valid around the time it is made. */
const validityMs = 30 * 24 * 3600 * 1000

/**
 * Creates the PKI (about 0.2 s: one RSA key) for a server at `baseUrl`.
 *
 * @param baseUrl the FHIR base URL the server certificate names; `iss` of valid metadata.
 */
export async function createUdapServerIdentity(baseUrl: string): Promise<UdapServerIdentity> {
  const now = Date.now()
  const notBefore = new Date(now - validityMs)
  const notAfter = new Date(now + validityMs)
  const root = await createCertificateAuthority({
    name: 'Hardening Root',
    keyType: 'p384',
    notBefore,
    notAfter,
  })
  const intermediate = await createCertificateAuthority({
    name: 'Hardening Intermediate',
    keyType: 'p384',
    notBefore,
    notAfter,
    issuer: root,
  })
  const server = await intermediate.issue({
    commonName: baseUrl,
    sanUris: [baseUrl],
    keyType: 'rsa2048',
    notBefore,
    notAfter,
  })
  const clientUri = 'https://client.hardening.test/app'
  const client = await intermediate.issue({
    commonName: 'Hardening client',
    sanUris: [clientUri],
    keyType: 'p256',
    notBefore,
    notAfter,
  })
  const crls = [root, intermediate].map(
    (authority) => authority.crl({ thisUpdate: notBefore, nextUpdate: notAfter }).crlPem,
  )
  const x5c = server.chainDer.map((der) => base64Encode(der))
  const origin = new URL(baseUrl).origin
  const endpoints = {
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
  }
  const signTexts = (headerText: string, claimsText: string): string => {
    const signingInput = `${base64UrlEncodeText(headerText)}.${base64UrlEncodeText(claimsText)}`
    const signature = sign('sha256', Buffer.from(signingInput), server.keyPair.privateKey)
    return `${signingInput}.${base64UrlEncode(new Uint8Array(signature))}`
  }
  const validHeader = () => ({ alg: 'RS256', x5c: [...x5c] })
  const validClaims = (at: Date): Record<string, unknown> => {
    const iat = Math.floor(at.getTime() / 1000)
    return { iss: baseUrl, sub: baseUrl, iat, exp: iat + 3600, jti: randomUUID(), ...endpoints }
  }
  return {
    baseUrl,
    trust: { trustedAnchors: [root.certificatePem], crls },
    x5c,
    server,
    client,
    clientUri,
    intermediate,
    validClaims,
    validHeader,
    signTexts,
    signNodes: (header, claims) => signTexts(renderJson(header), renderJson(claims)),
    validDocument: (at) => ({
      udap_versions_supported: ['1'],
      udap_profiles_supported: ['udap_dcr', 'udap_authn', 'udap_authz'],
      udap_authorization_extensions_supported: ['hl7-b2b'],
      udap_authorization_extensions_required: ['hl7-b2b'],
      udap_certifications_supported: [],
      udap_certifications_required: [],
      grant_types_supported: ['authorization_code', 'client_credentials'],
      scopes_supported: ['system/*.rs', 'user/*.rs', 'openid'],
      ...endpoints,
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS256', 'ES256', 'ES384'],
      registration_endpoint_jwt_signing_alg_values_supported: ['RS256', 'ES256', 'ES384'],
      signed_metadata: signTexts(
        renderJson(toJsonNode(validHeader())),
        renderJson(toJsonNode(validClaims(at))),
      ),
    }),
  }
}
