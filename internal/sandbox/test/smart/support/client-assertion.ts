import { randomUUID } from 'node:crypto'
import { importPKCS8, SignJWT } from 'jose'
import type { ClientKeys } from '../../../src/index.js'

/** What a test may change in a client assertion to break exactly one rule. */
export interface AssertionOverrides {
  readonly audience?: string
  readonly expiresInSeconds?: number
  readonly jti?: string
  readonly typ?: string | null
  readonly kid?: string | null
  readonly subject?: string
  readonly jku?: string
}

/**
 * Signs a SMART client assertion (typ JWT, kid, iss = sub = client_id, aud = token URL,
 * exp = now + 240 s, random jti) with jose, independently of the library under construction.
 */
export async function signClientAssertion(
  keys: ClientKeys,
  clientId: string,
  tokenEndpoint: string,
  overrides: AssertionOverrides = {},
): Promise<string> {
  const key = await importPKCS8(keys.privateKeyPem, keys.algorithm)
  const header: { alg: string; typ?: string; kid?: string; jku?: string } = { alg: keys.algorithm }
  if (overrides.typ !== null) header.typ = overrides.typ ?? 'JWT'
  if (overrides.kid !== null) header.kid = overrides.kid ?? keys.kid
  if (overrides.jku !== undefined) header.jku = overrides.jku
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({})
    .setProtectedHeader(header)
    .setIssuer(clientId)
    .setSubject(overrides.subject ?? clientId)
    .setAudience(overrides.audience ?? tokenEndpoint)
    .setIssuedAt(now)
    .setExpirationTime(now + (overrides.expiresInSeconds ?? 240))
    .setJti(overrides.jti ?? randomUUID())
    .sign(key)
}

export const clientAssertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
