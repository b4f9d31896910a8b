/**
 * Hostile token, registration and OAuth error responses: the no-I/O parsers
 * (`parseTokenResponse`, `parseUdapTokenResponse`, `parseRegistrationResponse`,
 * `parseUdapRegistrationResponse`, `parseOAuthErrorBody`) and every token and registration
 * operation of `Client` (public, symmetric, RS384 and ES384 asymmetric clients; refresh;
 * backend services; RFC 7591 registration) and of the UDAP functions, with hostile statuses,
 * content types and bodies. Every case ends in success or the flow's typed error, and no
 * secret of the request reaches the error or the log.
 *
 * A second group lets the server *echo* the request's secrets back (in `error`,
 * `error_description`, `error_uri`, other members, an HTML page): nothing the library exposes
 * may repeat them.
 */
import { Client } from '@fhir-auth/client'
import { type HttpResponse, parseOAuthErrorBody } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { type ClientKeys, generateClientKeys } from '@fhir-auth/sandbox'
import { parseRegistrationResponse, parseTokenResponse } from '@fhir-auth/smart'
import { createCapturingLogger, SecretScanner } from '@fhir-auth/test-utils'
import {
  cancelUdapRegistration,
  createSoftwareStatement,
  normalizeRegistrationMetadata,
  parseUdapRegistrationResponse,
  parseUdapTokenResponse,
  prepareUdapSigner,
  registerUdapClient,
  requestUdapClientCredentialsToken,
} from '@fhir-auth/udap'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createUdapServerIdentity,
  describedText,
  expectTypedOutcome,
  type HostileText,
  hostileBody,
  named,
  OutcomeTally,
  printCaseLedger,
  propertySettings,
  scriptedFetch,
  secretFindings,
  type UdapServerIdentity,
  validOAuthErrorBody,
  validRegistrationResponse,
  validTokenResponse,
} from '../src/index.js'

const origin = 'https://ehr.hardening.test'
const tokenEndpoint = `${origin}/token`
const registrationEndpoint = `${origin}/reg`
const timeoutMs = 250
const marginMs = 5_000
const successStatuses = [200, 200, 200, 201, 202, 203, 206]
const failureStatuses = [400, 401, 403, 404, 409, 429, 500, 502, 503]
const contentTypes = [
  'application/json',
  'application/json;charset=UTF-8',
  'text/html',
  'text/plain',
  '',
]

let rsaKeys: ClientKeys
let ecKeys: ClientKeys
let identity: UdapServerIdentity

beforeAll(async () => {
  ;[rsaKeys, ecKeys, identity] = await Promise.all([
    generateClientKeys('RS384'),
    generateClientKeys('ES384'),
    createUdapServerIdentity('https://fhir.hardening.test/r4'),
  ])
})
afterAll(() => printCaseLedger('hostile-token-responses'))

/** Request secrets: long random values, as real codes, verifiers and secrets are. */
const secretValue = (prefix: string) =>
  fc.base64String({ minLength: 24, maxLength: 44 }).map((value) => `${prefix}-${value}`)

const requestSecrets = fc.record({
  code: secretValue('code'),
  codeVerifier: fc.stringMatching(/^[A-Za-z0-9._~-]{43,64}$/),
  clientSecret: secretValue('secret'),
  refreshToken: secretValue('refresh'),
  initialAccessToken: secretValue('iat'),
})

/** A hostile answer of a token or registration endpoint. */
function hostileAnswer(validSuccess: Record<string, unknown>) {
  return fc.oneof(
    fc.record({
      status: fc.constantFrom(...successStatuses),
      contentType: fc.constantFrom(...contentTypes),
      body: hostileBody(validSuccess),
    }),
    fc.record({
      status: fc.constantFrom(...failureStatuses),
      contentType: fc.constantFrom(...contentTypes),
      body: hostileBody(validOAuthErrorBody()),
    }),
  )
}

function httpResponse(
  url: string,
  answer: { status: number; contentType: string; body: HostileText },
): HttpResponse {
  return {
    url,
    status: answer.status,
    headers: new Headers({ 'content-type': answer.contentType }),
    bodyText: answer.body.text,
  }
}

const parsers = [
  named('smart parseTokenResponse', {
    name: 'smart parseTokenResponse',
    errorName: 'TokenError',
    valid: validTokenResponse('access-token-value-1234', 'refresh-token-value-1234'),
    parse: (response: HttpResponse, secrets: readonly string[]) =>
      parseTokenResponse(response, secrets),
    isUsable: (value: unknown) => hasText(value, 'access_token'),
  }),
  named('udap parseUdapTokenResponse', {
    name: 'udap parseUdapTokenResponse',
    errorName: 'TokenError',
    valid: {
      access_token: 'access-token-value-1234',
      token_type: 'Bearer',
      expires_in: 300,
      scope: 'system/*.rs',
    },
    parse: (response: HttpResponse, secrets: readonly string[]) =>
      parseUdapTokenResponse(response, secrets),
    isUsable: (value: unknown) => hasText(value, 'access_token'),
  }),
  named('smart parseRegistrationResponse', {
    name: 'smart parseRegistrationResponse',
    errorName: 'RegistrationError',
    valid: validRegistrationResponse('client-id-1234', 'client-secret-1234'),
    parse: (response: HttpResponse, secrets: readonly string[]) =>
      parseRegistrationResponse(response, secrets),
    isUsable: (value: unknown) => hasText(value, 'client_id'),
  }),
  named('udap parseUdapRegistrationResponse register', {
    name: 'udap parseUdapRegistrationResponse register',
    errorName: 'RegistrationError',
    valid: {
      client_id: 'client-id-1234',
      client_name: 'app',
      grant_types: ['client_credentials'],
      scope: 'system/*.rs',
    },
    parse: (response: HttpResponse, secrets: readonly string[]) =>
      parseUdapRegistrationResponse(response, 'register', secrets),
    isUsable: (value: unknown) => hasText(value, 'client_id'),
  }),
  named('udap parseUdapRegistrationResponse cancel', {
    name: 'udap parseUdapRegistrationResponse cancel',
    errorName: 'RegistrationError',
    valid: { client_id: 'client-id-1234', grant_types: [] },
    parse: (response: HttpResponse, secrets: readonly string[]) =>
      parseUdapRegistrationResponse(response, 'cancel', secrets),
    isUsable: (value: unknown) => hasText(value, 'client_id') && isEmptyArray(value, 'grant_types'),
  }),
]

function hasText(value: unknown, member: string): boolean {
  const text = (value as Record<string, unknown>)[member]
  return typeof text === 'string' && text.trim() !== ''
}

function isEmptyArray(value: unknown, member: string): boolean {
  const list = (value as Record<string, unknown>)[member]
  return Array.isArray(list) && list.length === 0
}

describe.each(parsers)('$name over hostile responses', (parser) => {
  it('returns a usable body or throws the flow error, without the request secrets', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(hostileAnswer(parser.valid), requestSecrets, async (answer, secrets) => {
        const values = Object.values(secrets)
        const outcome = tally.record(
          await expectTypedOutcome(
            () => parser.parse(httpResponse(tokenEndpoint, answer), values),
            {
              maxElapsedMs: marginMs,
              secrets,
            },
          ),
        )
        if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe(parser.errorName)
        else expect(parser.isUsable(outcome.value)).toBe(true)
      }),
      propertySettings(`${parser.name} hostile`, 300),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })
})

/** Where a hostile server puts an echoed request secret. */
const echoPlaces = [
  'error',
  'error_description',
  'error_uri',
  'other member',
  'html page',
  'error_description past the cut',
  'error_uri past the cut',
] as const

/**
 * The body of an echo. `padding` characters come before the secret in the places "past the
 * cut", so the secret lands anywhere around the 512 characters the library keeps of a field.
 */
function echoBody(place: (typeof echoPlaces)[number], secret: string, padding: number): string {
  const before = 'x'.repeat(padding)
  switch (place) {
    case 'error':
      return JSON.stringify({ error: secret })
    case 'error_description':
      return JSON.stringify({
        error: 'invalid_grant',
        error_description: `code ${secret} is not valid`,
      })
    case 'error_uri':
      return JSON.stringify({
        error: 'invalid_grant',
        error_uri: `https://ehr.example.test/e?code=${encodeURIComponent(secret)}`,
      })
    case 'other member':
      return JSON.stringify({ error: 'invalid_grant', received: { code: secret } })
    case 'html page':
      return `<html><body>invalid request: ${secret}</body></html>`
    case 'error_description past the cut':
      return JSON.stringify({ error: 'invalid_grant', error_description: `${before}${secret}` })
    case 'error_uri past the cut':
      return JSON.stringify({
        error: 'invalid_grant',
        error_uri: `https://ehr.example.test/e?${before}${encodeURIComponent(secret)}`,
      })
  }
}

describe.each(parsers)('$name when the server echoes request secrets', (parser) => {
  it('keeps every echoed secret, and any prefix of it, out of the error (message, stack, cause, JSON, inspect)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...echoPlaces),
        fc.constantFrom(...failureStatuses),
        requestSecrets,
        fc.constantFrom(
          'code',
          'codeVerifier',
          'clientSecret',
          'refreshToken',
          'initialAccessToken',
        ),
        fc.integer({ min: 440, max: 530 }),
        async (place, status, secrets, which, padding) => {
          const values = Object.values(secrets)
          const response = httpResponse(tokenEndpoint, {
            status,
            contentType: place === 'html page' ? 'text/html' : 'application/json',
            body: describedText(echoBody(place, secrets[which], padding)),
          })
          // Redaction before truncation: a fragment the cut left behind starts with these.
          const prefix = { [`${which} (first 12 characters)`]: secrets[which].slice(0, 12) }
          const outcome = await expectTypedOutcome(() => parser.parse(response, values), {
            maxElapsedMs: marginMs,
            secrets: { ...secrets, ...prefix },
          })
          // A failure status is never a success, whatever the body says.
          expect(outcome.kind === 'typed-error' && outcome.error.name).toBe(parser.errorName)
        },
      ),
      propertySettings(`${parser.name} echo`, 80),
    )
  })
})

describe('parseOAuthErrorBody over hostile bodies', () => {
  it('never throws; returns undefined or string members of at most 513 characters', async () => {
    await fc.assert(
      fc.asyncProperty(hostileBody(validOAuthErrorBody()), async (body) => {
        let parsed: unknown
        try {
          parsed = JSON.parse(body.text)
        } catch {
          parsed = body.text
        }
        const outcome = await expectTypedOutcome(() => parseOAuthErrorBody(parsed), {
          maxElapsedMs: marginMs,
        })
        expect(outcome.kind).toBe('success')
        const fields =
          outcome.kind === 'success'
            ? (outcome.value as Record<string, unknown> | undefined)
            : undefined
        for (const value of Object.values(fields ?? {})) {
          expect(typeof value).toBe('string')
          expect(String(value).length).toBeLessThanOrEqual(513)
        }
      }),
      propertySettings('parseOAuthErrorBody hostile', 500),
    )
  })
})

/** The operations a `Client` sends to a token or registration endpoint. */
const clientOperations = [
  'code exchange public',
  'code exchange symmetric',
  'code exchange RS384',
  'code exchange ES384',
  'refresh symmetric',
  'refresh ES384',
  'backend services RS384',
  'backend services ES384',
  'registration',
] as const
type ClientOperation = (typeof clientOperations)[number]

function clientFor(
  operation: ClientOperation,
  secrets: { clientSecret: string },
  fetch: ReturnType<typeof scriptedFetch>,
) {
  const keys = operation.endsWith('RS384') ? rsaKeys : ecKeys
  const clientType = operation.endsWith('public')
    ? 'public'
    : operation.endsWith('symmetric')
      ? 'confidential_symmetric'
      : 'confidential_asymmetric'
  const logger = createCapturingLogger()
  const client = new Client(
    {
      baseUrl: `${origin}/fhir`,
      clientId: 'hardening-app',
      redirectUri: 'https://app.hardening.test/callback',
      scopes: ['launch/patient', 'patient/*.rs', 'offline_access'],
      tokenEndpoint,
      clientSecret: secrets.clientSecret,
      privateKey: keys.privateKeyPem,
      kid: keys.kid,
    },
    { clientType, fetch: fetch.fetch, timeoutMs, logger },
  )
  return { client, logger, keys }
}

describe('Client token and registration operations over hostile responses', () => {
  it('each operation ends in its result or its typed error; no secret in the error or the log', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...clientOperations),
        fc
          .constant(null)
          .chain(() =>
            hostileAnswer(validTokenResponse('access-value-1234', 'refresh-value-1234')),
          ),
        requestSecrets,
        async (operation, answer, secrets) => {
          const fetch = scriptedFetch(() => ({
            status: answer.status,
            body: answer.body.text,
            headers: { 'content-type': answer.contentType },
          }))
          const { client, logger, keys } = clientFor(operation, secrets, fetch)
          const outcome = tally.record(
            await expectTypedOutcome(
              () => {
                if (operation.startsWith('code exchange'))
                  return client.requestAccessToken({
                    code: secrets.code,
                    codeVerifier: secrets.codeVerifier,
                  })
                if (operation.startsWith('refresh'))
                  return client.refreshToken({ refreshToken: secrets.refreshToken })
                if (operation.startsWith('backend'))
                  return client.requestBackendToken({ scopes: ['system/*.rs'] })
                return client.registerClient(
                  { client_name: 'app', redirect_uris: ['https://app.hardening.test/callback'] },
                  { registrationEndpoint, authorization: `Bearer ${secrets.initialAccessToken}` },
                )
              },
              {
                maxElapsedMs: timeoutMs + marginMs,
                secrets,
                privateKeyPems: [keys.privateKeyPem],
              },
            ),
          )
          const assertions = fetch.calls.flatMap((call) => call.form?.client_assertion ?? [])
          const basic = fetch.calls.flatMap((call) => call.headers.authorization ?? [])
          if (outcome.kind === 'typed-error') {
            expect(['TokenError', 'RegistrationError']).toContain(outcome.error.name)
            expect(secretFindings(outcome.error, { secrets: [...assertions, ...basic] })).toEqual(
              [],
            )
          }
          const scanner = new SecretScanner().addLines('log', logger.renderedLines())
          for (const [index, secret] of [...Object.values(secrets), ...assertions].entries())
            scanner.addSecret(`secret ${index}`, secret)
          scanner.addPrivateKeyPem('client key', keys.privateKeyPem)
          expect(scanner.findings()).toEqual([])
        },
      ),
      propertySettings('Client token and registration hostile', 400),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    console.info(`[hardening] Client token and registration hostile: ${tally.summary()}`)
  })
})

describe('UDAP registration, cancellation and token functions over hostile responses', () => {
  const crypto = createNodeCryptoBackend()
  const udapOperations = ['register', 'cancel', 'token'] as const

  it('each ends in its result or its typed error; the statement and assertion stay out of errors', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...udapOperations),
        fc.constant(null).chain(() =>
          hostileAnswer({
            client_id: 'udap-client-1234',
            grant_types: ['client_credentials'],
            access_token: 'access-value-1234',
          }),
        ),
        async (operation, answer) => {
          const fetch = scriptedFetch(() => ({
            status: answer.status,
            body: answer.body.text,
            headers: { 'content-type': answer.contentType },
          }))
          const now = new Date()
          const { signer } = await prepareUdapSigner({
            crypto,
            privateKey: identity.client.privateKeyPem,
            certificateChain: identity.client.chainDer,
            clientUri: identity.clientUri,
            advertisedAlgorithms: ['ES256'],
            now,
          })
          const transport = { fetch: fetch.fetch, timeoutMs }
          const outcome = tally.record(
            await expectTypedOutcome(
              async () => {
                if (operation === 'token') {
                  return requestUdapClientCredentialsToken({
                    ...transport,
                    tokenEndpoint: `${identity.baseUrl}/token`,
                    issuer: 'udap-client-1234',
                    signer,
                    scopes: ['system/*.rs'],
                  })
                }
                const claims = normalizeRegistrationMetadata(
                  {
                    client_name: 'Hardening client',
                    contacts: ['mailto:ops@hardening.test'],
                    scope: 'system/*.rs',
                    ...(operation === 'register' ? { grant_types: ['client_credentials'] } : {}),
                  },
                  { operation },
                )
                const softwareStatement = await createSoftwareStatement({
                  claims,
                  clientUri: identity.clientUri,
                  registrationEndpoint: `${identity.baseUrl}/register`,
                  signer,
                })
                const request = {
                  ...transport,
                  registrationEndpoint: `${identity.baseUrl}/register`,
                  softwareStatement,
                }
                return operation === 'register'
                  ? registerUdapClient(request)
                  : cancelUdapRegistration(request)
              },
              {
                maxElapsedMs: timeoutMs + marginMs,
                privateKeyPems: [identity.client.privateKeyPem],
              },
            ),
          )
          const sent = fetch.calls.flatMap((call) => [
            ...(call.form?.client_assertion === undefined ? [] : [call.form.client_assertion]),
            ...(call.body !== undefined && call.form === undefined
              ? [String((JSON.parse(call.body) as Record<string, unknown>).software_statement)]
              : []),
          ])
          if (outcome.kind === 'typed-error') {
            expect(['TokenError', 'RegistrationError']).toContain(outcome.error.name)
            expect(secretFindings(outcome.error, { secrets: sent })).toEqual([])
          }
        },
      ),
      propertySettings('UDAP functions hostile', 250),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })
})
