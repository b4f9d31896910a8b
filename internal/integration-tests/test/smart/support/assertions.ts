import type { ClientKeys, RecordedRequest } from '@fhir-auth/sandbox'
import { decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose'
import { expect } from 'vitest'

/** RFC 7523 §2.2: the `client_assertion_type` of a JWT client assertion. */
export const jwtBearerAssertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'

/** The verified parts of a client assertion. */
export interface VerifiedAssertion {
  readonly header: Readonly<Record<string, unknown>>
  readonly claims: Readonly<Record<string, unknown>>
}

/**
 * Verifies a SMART client assertion with jose against the registered public JWK and checks
 * SMART's rules: header `typ: JWT`, `kid` and the key's algorithm; claims `iss = sub =
 * clientId`, `aud` = the token endpoint, `exp − iat ≤ 300` and a `jti`.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html#authenticating-to-the-token-endpoint
 */
export async function verifyClientAssertion(
  assertion: unknown,
  keys: ClientKeys,
  clientId: string,
  tokenEndpoint: string,
): Promise<VerifiedAssertion> {
  expect(typeof assertion).toBe('string')
  const jwt = String(assertion)
  const header = decodeProtectedHeader(jwt)
  expect(header).toMatchObject({ alg: keys.algorithm, typ: 'JWT', kid: keys.kid })
  // A JSON round trip drops the members core's Jwk type allows to be undefined, which jose's JWK does not.
  const registeredJwk = JSON.parse(JSON.stringify(keys.publicJwk)) as JWK
  const key = await importJWK(registeredJwk, keys.algorithm)
  const { payload } = await jwtVerify(jwt, key, {
    algorithms: [keys.algorithm],
    issuer: clientId,
    subject: clientId,
    audience: tokenEndpoint,
    typ: 'JWT',
  })
  expect(payload.aud).toBe(tokenEndpoint)
  expect(typeof payload.iat).toBe('number')
  expect(typeof payload.exp).toBe('number')
  expect(Number(payload.exp) - Number(payload.iat)).toBeGreaterThan(0)
  expect(Number(payload.exp) - Number(payload.iat)).toBeLessThanOrEqual(300)
  expect(typeof payload.jti).toBe('string')
  expect(String(payload.jti).length).toBeGreaterThanOrEqual(22)
  return { header, claims: payload }
}

/** Checks a token request authenticated with a client assertion and returns it verified. */
export async function expectAssertionAuthentication(
  request: RecordedRequest,
  keys: ClientKeys,
  clientId: string,
  tokenEndpoint: string,
): Promise<VerifiedAssertion> {
  expect(request.headers.authorization).toBeUndefined()
  expect(request.form?.client_assertion_type).toBe(jwtBearerAssertionType)
  expect(request.form?.client_secret).toBeUndefined()
  return verifyClientAssertion(request.form?.client_assertion, keys, clientId, tokenEndpoint)
}

/** Checks a token request of a public client: `client_id` in the form, no Authorization header. */
export function expectPublicAuthentication(request: RecordedRequest, clientId: string): void {
  expect(request.form?.client_id).toBe(clientId)
  expect(request.headers.authorization).toBeUndefined()
  expect(request.form?.client_assertion).toBeUndefined()
  expect(request.form?.client_secret).toBeUndefined()
}

/**
 * Checks a token request of a `client_secret_basic` client: the Basic header carries the
 * form-urlencoded id and secret (RFC 6749 §2.3.1) and the body carries no secret at all.
 */
export function expectBasicAuthentication(
  request: RecordedRequest,
  clientId: string,
  clientSecret: string,
): void {
  const header = request.headers.authorization ?? ''
  expect(header.startsWith('Basic ')).toBe(true)
  const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8')
  const separator = decoded.indexOf(':')
  expect(formUrlDecode(decoded.slice(0, separator))).toBe(clientId)
  expect(formUrlDecode(decoded.slice(separator + 1)) === clientSecret).toBe(true)
  expect(request.form?.client_secret).toBeUndefined()
  expect(request.body?.includes(clientSecret)).toBe(false)
  expect(request.form?.client_assertion).toBeUndefined()
}

/** Undoes `application/x-www-form-urlencoded` encoding (`+` is a space). */
function formUrlDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '))
}
