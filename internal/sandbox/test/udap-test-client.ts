/**
 * A deliberately plain UDAP client for the sandbox's own tests: fetch + jose + node:crypto,
 * nothing from the fhir-auth library (which is tested *against* this sandbox).
 */
import { randomUUID, X509Certificate } from 'node:crypto'
import {
  createCertificateAuthority,
  type IssuedCertificate,
  type KeyType,
} from '@fhir-auth/test-pki/issuer'
import { CompactSign, importPKCS8 } from 'jose'
import type { UdapSandbox } from '../src/index.js'

export const clientUri = 'https://client.example.test/app'
export const jwtBearer = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'

/** A valid `hl7-b2b` extension object. */
export const b2b = {
  version: '1',
  organization_id: 'https://organization.example.test/fhir/Organization/1',
  organization_name: 'Example Organization',
  purpose_of_use: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
}

/** Issues a client certificate under the sandbox's trusted intermediate. */
export function issueClient(
  sandbox: UdapSandbox,
  options: { sanUris?: string[]; keyType?: KeyType } = {},
): Promise<IssuedCertificate> {
  return sandbox.certificateAuthority.issue({
    commonName: 'UDAP test client',
    sanUris: options.sanUris ?? [clientUri],
    keyType: options.keyType ?? 'p256',
  })
}

/** The JOSE alg a test key type signs with. */
export function algorithmFor(certificate: IssuedCertificate): string {
  switch (certificate.keyPair.keyType) {
    case 'p256':
      return 'ES256'
    case 'p384':
      return 'ES384'
    default:
      return 'RS256'
  }
}

/** Signs `claims` with the certificate's key; header `alg` + `x5c` (leaf first). */
export async function signWithCertificate(
  claims: Record<string, unknown>,
  certificate: IssuedCertificate,
  options: { alg?: string; x5c?: string[]; signingKeyPem?: string } = {},
): Promise<string> {
  const alg = options.alg ?? algorithmFor(certificate)
  const key = await importPKCS8(options.signingKeyPem ?? certificate.privateKeyPem, alg)
  const x5c = options.x5c ?? certificate.chainDer.map((der) => Buffer.from(der).toString('base64'))
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg, x5c })
    .sign(key)
}

/** Valid claims of a client_credentials software statement; `overrides` replace or (undefined) drop. */
export function statementClaims(
  sandbox: UdapSandbox,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000)
  return withOverrides(
    {
      iss: clientUri,
      sub: clientUri,
      aud: sandbox.endpoints.registration,
      iat: now,
      exp: now + 300,
      jti: randomUUID(),
      client_name: 'UDAP Test Client',
      contacts: ['mailto:operator@client.example.test'],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      scope: 'system/Patient.rs system/Observation.rs',
    },
    overrides,
  )
}

/** Valid claims of an authentication token for `clientId`, with `hl7-b2b`. */
export function authenticationClaims(
  sandbox: UdapSandbox,
  clientId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000)
  return withOverrides(
    {
      iss: clientId,
      sub: clientId,
      aud: sandbox.endpoints.token,
      iat: now,
      exp: now + 300,
      jti: randomUUID(),
      extensions: { 'hl7-b2b': b2b },
    },
    overrides,
  )
}

function withOverrides(
  base: Record<string, unknown>,
  overrides: Record<string, unknown>,
): Record<string, unknown> {
  const result = { ...base, ...overrides }
  for (const [key, value] of Object.entries(overrides)) if (value === undefined) delete result[key]
  return result
}

/** The parsed answer of a request. */
export interface Answer {
  readonly status: number
  readonly json: Record<string, unknown>
}

/** POSTs a registration request. */
export async function register(
  sandbox: UdapSandbox,
  softwareStatement: string,
  body: Record<string, unknown> = {},
): Promise<Answer> {
  const response = await fetch(`${sandbox.origin}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ software_statement: softwareStatement, udap: '1', ...body }),
  })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}

/** Signs a statement for `certificate` and registers it. */
export async function registerClient(
  sandbox: UdapSandbox,
  certificate: IssuedCertificate,
  overrides: Record<string, unknown> = {},
): Promise<Answer> {
  return register(
    sandbox,
    await signWithCertificate(statementClaims(sandbox, overrides), certificate),
  )
}

/** POSTs a token request with `udap=1` and the jwt-bearer assertion type; `form` entries replace or (undefined) drop. */
export async function postToken(
  sandbox: UdapSandbox,
  form: Record<string, string | undefined>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const fields: Record<string, string | undefined> = {
    udap: '1',
    client_assertion_type: jwtBearer,
    ...form,
  }
  const body = new URLSearchParams()
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, value)
  const response = await fetch(`${sandbox.origin}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}

/** POSTs a client_credentials token request; `form` entries replace or (undefined) drop. */
export function requestToken(
  sandbox: UdapSandbox,
  assertion: string,
  form: Record<string, string | undefined> = {},
  headers: Record<string, string> = {},
): Promise<Answer> {
  return postToken(
    sandbox,
    {
      grant_type: 'client_credentials',
      scope: 'system/Patient.rs',
      client_assertion: assertion,
      ...form,
    },
    headers,
  )
}

/** A certificate for `sanUris` under a fresh root that no sandbox trusts. */
export async function issueUntrustedCertificate(sanUris: string[]): Promise<IssuedCertificate> {
  const now = Date.now()
  const untrusted = await createCertificateAuthority({
    name: 'Untrusted',
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 86_400_000),
  })
  return untrusted.issue({ commonName: 'stranger', sanUris })
}

/** GETs the discovery document (optionally for a community). */
export async function discover(sandbox: UdapSandbox, community?: string): Promise<Response> {
  const query = community === undefined ? '' : `?community=${encodeURIComponent(community)}`
  return fetch(`${sandbox.origin}/fhir/.well-known/udap${query}`)
}

/** The decoded parts of a compact JWS. */
export interface DecodedJws {
  readonly header: Record<string, unknown>
  readonly claims: Record<string, unknown>
  readonly x5c: X509Certificate[]
}

/** Decodes (without verifying) a compact JWS and its `x5c` certificates. */
export function decodeJws(jws: string): DecodedJws {
  const [header = '', payload = ''] = jws.split('.')
  const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >
  const x5c = Array.isArray(parsedHeader.x5c) ? (parsedHeader.x5c as string[]) : []
  return {
    header: parsedHeader,
    claims: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >,
    x5c: x5c.map((entry) => new X509Certificate(Buffer.from(entry, 'base64'))),
  }
}

/** The `URI:` entries of a certificate's subjectAltName. */
export function sanUrisOf(certificate: X509Certificate): string[] {
  return (certificate.subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('URI:'))
    .map((entry) => entry.slice('URI:'.length))
}
