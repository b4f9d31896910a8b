/**
 * A deliberately plain client of the UDAP sandbox's authorization-code flow, for the sandbox's
 * own tests: fetch + jose + node:crypto, nothing from the fhir-auth library.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { IssuedCertificate, KeyType } from '@fhir-auth/test-pki/issuer'
import { expect } from 'vitest'
import type { UdapSandbox } from '../src/index.js'
import {
  type Answer,
  issueClient,
  postToken,
  registerClient,
  signWithCertificate,
} from './udap-test-client.js'

export { postToken } from './udap-test-client.js'

export const appRedirectUri = 'https://app.example.test/callback'

/** A client registered for authorization_code at a sandbox. */
export interface CodeClient {
  readonly clientId: string
  readonly uri: string
  readonly certificate: IssuedCertificate
  readonly redirectUris: readonly string[]
}

/** Options of {@link registerCodeClient}. */
export interface CodeClientOptions {
  readonly keyType?: KeyType
  readonly scope?: string
  readonly redirectUris?: readonly string[]
  readonly grantTypes?: readonly string[]
}

/** Registers a fresh authorization_code client (with refresh_token unless told otherwise). */
export async function registerCodeClient(
  sandbox: UdapSandbox,
  options: CodeClientOptions = {},
): Promise<CodeClient> {
  const uri = `https://app.example.test/${randomUUID()}`
  const certificate = await issueClient(sandbox, {
    sanUris: [uri],
    keyType: options.keyType ?? 'p256',
  })
  const redirectUris = options.redirectUris ?? [appRedirectUri]
  const answer = await registerClient(sandbox, certificate, {
    iss: uri,
    sub: uri,
    grant_types: options.grantTypes ?? ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: redirectUris,
    logo_uri: 'https://app.example.test/logo.png',
    scope: options.scope ?? 'openid fhirUser profile user/*.rs patient/*.rs',
  })
  expect(answer.status, JSON.stringify(answer.json)).toBe(201)
  return { clientId: answer.json.client_id as string, uri, certificate, redirectUris }
}

/** A PKCE verifier and its S256 challenge, computed here with node:crypto. */
export function pkcePair(): { readonly verifier: string; readonly challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** The parameters of a conformant authorization request; `overrides` replace or (undefined) drop. */
export function authorizationParameters(
  client: CodeClient,
  challenge: string,
  overrides: Record<string, string | undefined> = {},
): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUris[0],
    scope: 'openid fhirUser user/Patient.rs',
    state: randomBytes(16).toString('base64url'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  }
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
}

/** The GET authorization URL at the sandbox's loopback origin. */
export function authorizationUrl(sandbox: UdapSandbox, parameters: Record<string, string>): string {
  return `${sandbox.origin}/authorize?${new URLSearchParams(parameters)}`
}

/** Runs a conformant authorization through the sandbox's user agent and returns code + verifier. */
export async function authorizeClient(
  sandbox: UdapSandbox,
  client: CodeClient,
  overrides: Record<string, string | undefined> = {},
): Promise<{ readonly code: string; readonly verifier: string; readonly state: string }> {
  const { verifier, challenge } = pkcePair()
  const parameters = authorizationParameters(client, challenge, overrides)
  const result = await sandbox.authorize({ url: authorizationUrl(sandbox, parameters) })
  expect(result.error, result.errorDescription).toBeUndefined()
  expect(result.state).toBe(parameters.state)
  return { code: result.code as string, verifier, state: parameters.state as string }
}

/** Claims of an authentication token for the code flow (no `extensions`). */
export function codeFlowClaims(
  sandbox: UdapSandbox,
  clientId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000)
  const claims: Record<string, unknown> = {
    iss: clientId,
    sub: clientId,
    aud: sandbox.endpoints.token,
    iat: now,
    exp: now + 300,
    jti: randomUUID(),
    ...overrides,
  }
  for (const [key, value] of Object.entries(overrides)) if (value === undefined) delete claims[key]
  return claims
}

/** Signs a code-flow authentication token for `client`. */
export function codeFlowAssertion(
  sandbox: UdapSandbox,
  client: CodeClient,
  overrides: Record<string, unknown> = {},
  options: Parameters<typeof signWithCertificate>[2] = {},
): Promise<string> {
  return signWithCertificate(
    codeFlowClaims(sandbox, client.clientId, overrides),
    client.certificate,
    options,
  )
}

/** Exchanges a code with a fresh authentication token. */
export async function exchangeCode(
  sandbox: UdapSandbox,
  client: CodeClient,
  grant: { readonly code: string; readonly verifier: string },
  form: Record<string, string | undefined> = {},
): Promise<Answer> {
  return postToken(sandbox, {
    grant_type: 'authorization_code',
    code: grant.code,
    code_verifier: grant.verifier,
    redirect_uri: client.redirectUris[0],
    client_assertion: await codeFlowAssertion(sandbox, client),
    ...form,
  })
}

/** Refreshes with a fresh authentication token. */
export async function refresh(
  sandbox: UdapSandbox,
  client: CodeClient,
  refreshToken: string,
  form: Record<string, string | undefined> = {},
): Promise<Answer> {
  return postToken(sandbox, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_assertion: await codeFlowAssertion(sandbox, client),
    ...form,
  })
}

/** GETs the sandbox's Patient read with a Bearer token. */
export async function readPatient(sandbox: UdapSandbox, accessToken: string): Promise<number> {
  const response = await fetch(`${sandbox.origin}/fhir/Patient/patient-1`, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  await response.body?.cancel()
  return response.status
}
