import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto'
import { Client } from '@fhir-auth/client'
import {
  ConfigurationError,
  type CryptoBackend,
  type JwsSigner,
  type Logger,
  type PrivateKeyInput,
} from '@fhir-auth/core'
import {
  type CapturedRequest,
  fakeRoutes,
  type RouteHandler,
} from '@fhir-auth/test-utils/fake-fetch'
import { expect } from 'vitest'

export const baseUrl = 'https://ehr.example.org/fhir'
export const discoveryUrl = `${baseUrl}/.well-known/smart-configuration`

export const smartConfiguration = {
  issuer: baseUrl,
  authorization_endpoint: 'https://ehr.example.org/auth/authorize',
  token_endpoint: 'https://ehr.example.org/auth/token',
  registration_endpoint: 'https://ehr.example.org/auth/register',
  grant_types_supported: ['authorization_code', 'client_credentials'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
  token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
  code_challenge_methods_supported: ['S256'],
  capabilities: [
    'launch-ehr',
    'launch-standalone',
    'authorize-post',
    'client-public',
    'client-confidential-symmetric',
    'client-confidential-asymmetric',
  ],
}

/** The client tests' fetch: answers by URL, in any order, and verifies itself. */
export { fakeRoutes as fakeServer } from '@fhir-auth/test-utils/fake-fetch'

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

export const tokenBody = {
  access_token: 'at-123456',
  token_type: 'Bearer',
  expires_in: 300,
  scope: 'patient/*.rs',
}

/** A logger that records every call. */
export function capturingLogger() {
  const lines: { level: string; message: string; fields?: unknown }[] = []
  const record = (level: string) => (message: string, fields?: unknown) => {
    lines.push({ level, message, fields })
  }
  const logger: Logger = {
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    debug: record('debug'),
  }
  return { logger, lines, text: () => JSON.stringify(lines) }
}

/** A minimal node:crypto backend for the unit tests (the real backends have their own suites). */
export function testBackend(): CryptoBackend & { imports: number } {
  const backend = {
    name: 'test',
    imports: 0,
    async importSigner(
      key: PrivateKeyInput,
      options: { kid?: string | undefined; algorithm?: string | undefined },
    ) {
      backend.imports++
      const keyObject = createPrivateKey(key as string)
      const alg = keyObject.asymmetricKeyType === 'rsa' ? 'RS384' : 'ES384'
      if (options.algorithm !== undefined && options.algorithm !== alg)
        throw new Error('alg mismatch')
      const signer: JwsSigner = {
        alg,
        kid: options.kid,
        sign: async (input) =>
          new Uint8Array(sign('sha384', input, { key: keyObject, dsaEncoding: 'ieee-p1363' })),
      }
      return signer
    },
    parseCertificate: () => Promise.reject(new Error('unused')),
    keyMatchesCertificate: () => Promise.reject(new Error('unused')),
    verifyCertificateChain: () => Promise.reject(new Error('unused')),
    loadPkcs12: () => Promise.reject(new Error('unused')),
    verifySignature: () => Promise.reject(new Error('unused')),
  }
  return backend as unknown as CryptoBackend & { imports: number }
}

export function ecKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' })
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
}

export function formOf(request: CapturedRequest | undefined): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(request?.bodyText ?? ''))
}

/** Runs `action`, which must throw a `ConfigurationError`, and returns that error. */
export function configurationError(action: () => unknown): ConfigurationError {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError)
    return error as ConfigurationError
  }
  throw new Error('expected a ConfigurationError')
}

/** Awaits `promise`, which must reject with a `ConfigurationError`, and returns that error. */
export async function configurationRejection(
  promise: Promise<unknown>,
): Promise<ConfigurationError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(ConfigurationError)
  return error as ConfigurationError
}

/** What a promise rejected with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a rejection')
}

/**
 * A session of a SMART client whose server answers `routes` (FHIR URLs under {@link baseUrl})
 * besides discovery and the token endpoint: it holds `at-1`, and a refresh (refresh token `rt-1`)
 * gives `at-2`. `bearers()` lists the `Authorization` header of each FHIR request (discovery
 * aside), in order.
 */
export function sessionOn(routes: Readonly<Record<string, RouteHandler>>) {
  const server = fakeRoutes({
    [discoveryUrl]: () => json(smartConfiguration),
    [smartConfiguration.token_endpoint]: () =>
      json({ access_token: 'at-2', token_type: 'Bearer', expires_in: 300 }),
    ...routes,
  })
  const client = new Client(
    { baseUrl, clientId: 'app', redirectUri: 'https://app.example.org/cb' },
    { fetch: server.fetch },
  )
  const session = client.resumeSession({
    access_token: 'at-1',
    token_type: 'Bearer',
    refresh_token: 'rt-1',
    expires_in: 300,
  })
  const bearers = () =>
    server.requests
      .filter((request) => request.url.startsWith(`${baseUrl}/`) && request.url !== discoveryUrl)
      .map((request) => request.headers.get('authorization'))
  return { session, server, bearers }
}

/** A route that never answers (its fetch ignores the signal), and a promise of its first request. */
export function hangingRoute() {
  let received = () => {}
  const requestReceived = new Promise<void>((resolve) => {
    received = resolve
  })
  const route = () => {
    received()
    return new Promise<Response>(() => {})
  }
  return { route, requestReceived }
}
