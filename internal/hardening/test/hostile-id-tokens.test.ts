/**
 * Hostile ID tokens and key sets (DESIGN §8, OIDC Core §3.1.3.7) through `Client`: headers and
 * claims mutated and **re-signed with the server's real key** (so they reach every check after
 * the signature), damaged JWS text, hostile key sets (`jwks_uri` bodies, statuses, content
 * types, keys of the wrong type or size), hostile OpenID configurations when SMART discovery
 * names no key set, and hostile `id_token` members in the token response of
 * `completeAuthorization`. On both crypto backends. Every case ends in verified claims or an
 * `IdTokenError` (a `DiscoveryError` when SMART discovery itself is what is broken), within the
 * client's time limit, and no message quotes the token.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto'
import { Client, type IdTokenError, memoryStore, silentLogger } from '@fhir-auth/client'
import type { CryptoBackend } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  type CaseOutcome,
  damagedText,
  expectTypedOutcome,
  hostileBody,
  mutatedDocument,
  OutcomeTally,
  printCaseLedger,
  propertySettings,
  renderJson,
  type ScriptedAnswer,
  scriptedFetch,
  validOpenIdConfiguration,
  validSmartConfiguration,
} from '../src/index.js'

const origin = 'https://ehr.idtokens.test'
const baseUrl = `${origin}/fhir`
const clientId = 'id-token-app'
const redirectUri = 'https://app.idtokens.test/callback'
const timeoutMs = 250
const maxElapsedMs = timeoutMs * 4 + 5_000
const nonce = 'nonce-Hj7Kl8Zx9Cv0'

afterAll(() => printCaseLedger('hostile-id-tokens'))

const json = (body: unknown, status = 200): ScriptedAnswer => ({
  status,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
})

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const serverJwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' }
const validJwks = { keys: [serverJwk] }

const base64Url = (text: string) => Buffer.from(text).toString('base64url')

function validClaims(): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000)
  return { iss: origin, sub: 'user-1', aud: clientId, iat: now, exp: now + 300, nonce }
}

/** `header.payload` (already JSON texts) signed with `key` (RS256). */
function signed(headerText: string, payloadText: string, key: KeyObject = privateKey): string {
  const input = `${base64Url(headerText)}.${base64Url(payloadText)}`
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`
}

const validToken = () =>
  signed('{"alg":"RS256","kid":"k1","typ":"JWT"}', JSON.stringify(validClaims()))

/** The server's own openid-configuration: it binds the issuer to the server (ADR 0013). */
const openIdProvider = validOpenIdConfiguration(origin)

/** A client whose server answers discovery, the key set and the OpenID configuration as told. */
function client(
  crypto: CryptoBackend,
  answers: {
    readonly discovery?: ScriptedAnswer
    readonly jwks?: ScriptedAnswer
    readonly openIdConfiguration?: ScriptedAnswer
    readonly token?: ScriptedAnswer
  } = {},
): Client {
  const server = scriptedFetch((call) => {
    const url = call.url.split('?')[0] ?? ''
    if (url === `${baseUrl}/.well-known/smart-configuration`)
      return answers.discovery ?? json(validSmartConfiguration(origin))
    if (url === `${origin}/jwks`) return answers.jwks ?? json(validJwks)
    if (url === `${origin}/.well-known/openid-configuration`)
      return answers.openIdConfiguration ?? json(openIdProvider)
    if (url === `${origin}/token`) return answers.token ?? { status: 500, body: '' }
    return { status: 404, body: '' }
  })
  return new Client(
    { baseUrl, clientId, redirectUri, scopes: ['openid', 'fhirUser', 'patient/*.rs'] },
    { fetch: server.fetch, timeoutMs, crypto, logger: silentLogger },
  )
}

const backends = [
  ['crypto-node', createNodeCryptoBackend()],
  ['crypto-webcrypto', createWebCryptoBackend()],
] as const

/** The outcome, checked further: an error is an IdTokenError (or `allowed`) that quotes no token part. */
function expectIdTokenOutcome(
  outcome: CaseOutcome,
  token: string,
  allowed: readonly string[] = ['IdTokenError'],
): CaseOutcome {
  if (outcome.kind === 'typed-error') {
    expect(allowed, outcome.error.message).toContain(outcome.error.name)
    for (const part of token.split('.')) {
      if (part.length >= 16) expect(outcome.error.message).not.toContain(part)
    }
  }
  return outcome
}

describe.each(backends)('ID tokens a server signed, on %s', (_name, crypto) => {
  it('headers and claims mutated, then re-signed with the server’s key: claims or an IdTokenError', async () => {
    const tally = new OutcomeTally()
    const reasons = new Set<string>()
    const app = client(crypto)
    const header = mutatedDocument({ alg: 'RS256', kid: 'k1', typ: 'JWT' }).map(renderJson)
    const claims = fc.oneof(
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 4, arbitrary: mutatedDocument(validClaims()).map(renderJson) },
    )
    await fc.assert(
      fc.asyncProperty(header, claims, async (headerText, claimsText) => {
        const token = signed(headerText, claimsText ?? JSON.stringify(validClaims()))
        const outcome = await expectTypedOutcome(() => app.validateIdToken(token, { nonce }), {
          maxElapsedMs,
        })
        tally.record(expectIdTokenOutcome(outcome, token))
        if (outcome.kind === 'typed-error') reasons.add((outcome.error as IdTokenError).reason)
      }),
      propertySettings(`re-signed ID tokens (${_name})`, 120),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    // The mutations reach the claim checks, not only the header ones.
    for (const reason of ['alg', 'iss', 'aud', 'exp', 'nonce', 'malformed']) {
      expect([...reasons], tally.summary()).toContain(reason)
    }
  }, 120_000)

  it('damaged JWS text: an IdTokenError that quotes none of it', async () => {
    const tally = new OutcomeTally()
    const app = client(crypto)
    const valid = validToken()
    await fc.assert(
      fc.asyncProperty(damagedText(valid), async (token) => {
        tally.record(
          expectIdTokenOutcome(
            await expectTypedOutcome(() => app.validateIdToken(token, { nonce }), { maxElapsedMs }),
            token,
          ),
        )
      }),
      propertySettings(`damaged ID token text (${_name})`, 200),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  }, 120_000)
})

describe('key sets and OpenID configurations a server got wrong', () => {
  const statuses = [200, 200, 200, 201, 204, 301, 404, 500]
  const contentTypes = ['application/json', 'application/jwk-set+json', 'text/html', '']

  it('a hostile jwks_uri answer: the claims (when the key survives) or an IdTokenError', async () => {
    const tally = new OutcomeTally()
    const jwk = (overrides: Record<string, unknown>) => ({ keys: [{ ...serverJwk, ...overrides }] })
    const answer = fc.oneof(
      fc.record({
        status: fc.constantFrom(...statuses),
        contentType: fc.constantFrom(...contentTypes),
        body: hostileBody(validJwks),
      }),
      fc.record({
        status: fc.constant(200),
        contentType: fc.constant('application/json'),
        body: fc
          .constantFrom(
            jwk({ kty: 'EC' }),
            jwk({ n: 'AQAB' }),
            jwk({ n: '' }),
            jwk({ e: 'not base64 !' }),
            jwk({ use: 'enc' }),
            jwk({ key_ops: ['encrypt'] }),
            jwk({ alg: 'RS512' }),
            jwk({ kid: 'another' }),
            jwk({ kty: 'oct', k: 'c2VjcmV0' }),
            {
              keys: Array.from({ length: 2_000 }, (_, index) => ({
                ...serverJwk,
                kid: `k${index}`,
              })),
            },
            { keys: [] },
            { keys: {} },
          )
          .map((body) => ({ text: JSON.stringify(body) })),
      }),
    )
    const token = validToken()
    await fc.assert(
      fc.asyncProperty(
        answer,
        fc.constantFrom(...backends.map(([, backend]) => backend)),
        async (jwks, crypto) => {
          const app = client(crypto, {
            jwks: {
              status: jwks.status,
              body: jwks.body.text,
              headers: { 'content-type': jwks.contentType },
            },
          })
          tally.record(
            expectIdTokenOutcome(
              await expectTypedOutcome(() => app.validateIdToken(token, { nonce }), {
                maxElapsedMs,
              }),
              token,
            ),
          )
        },
      ),
      propertySettings('hostile key sets', 250),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  }, 120_000)

  it('no jwks_uri in SMART discovery and a hostile openid-configuration: claims or an IdTokenError', async () => {
    const tally = new OutcomeTally()
    const { jwks_uri: _none, ...withoutKeySet } = validSmartConfiguration(origin)
    const token = validToken()
    await fc.assert(
      fc.asyncProperty(hostileBody(openIdProvider), async (body) => {
        const app = client(backends[0][1], {
          discovery: json(withoutKeySet),
          openIdConfiguration: json(body.text),
        })
        tally.record(
          expectIdTokenOutcome(
            await expectTypedOutcome(() => app.validateIdToken(token, { nonce }), {
              maxElapsedMs,
            }),
            token,
          ),
        )
      }),
      propertySettings('hostile OpenID configurations', 200),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  }, 120_000)

  it('a hostile id_token member in the token response of completeAuthorization: a session or a typed error', async () => {
    const tally = new OutcomeTally()
    const idToken = fc.oneof(
      damagedText(validToken()),
      fc.constantFrom(42, null, true, {}, [validToken()], ''),
      mutatedDocument(validClaims())
        .map(renderJson)
        .map((claims) => signed('{"alg":"RS256","kid":"k1"}', claims)),
    )
    await fc.assert(
      fc.asyncProperty(idToken, async (token) => {
        const app = client(backends[0][1], {
          token: json({
            access_token: 'access-token-Bn5Mq4Wr3',
            token_type: 'Bearer',
            expires_in: 3600,
            scope: 'openid fhirUser patient/*.rs',
            id_token: token,
          }),
        })
        const store = memoryStore()
        const { state } = await app.beginAuthorization({ store })
        tally.record(
          await expectTypedOutcome(
            () =>
              app.completeAuthorization(`${redirectUri}?code=code-Ty6Ui7&state=${state}`, {
                store,
              }),
            { maxElapsedMs, secrets: { access: 'access-token-Bn5Mq4Wr3' } },
          ),
        )
      }),
      propertySettings('hostile id_token members', 150),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.summary()).toContain('IdTokenError')
  }, 120_000)
})
