/**
 * Hostile UDAP discovery: mutated metadata documents through `parseUdapMetadata`; mutated
 * `signed_metadata` claims and headers *re-signed with the server's real key* (so they pass
 * the signature check and reach every claim check) and damaged JWS text through
 * `verifySignedMetadata` on both crypto backends; hostile responses through
 * `discoverUdapMetadata`; and hostile discovery through `Client` (`serverMetadata`, then a
 * client-credentials token request). Every case ends in success or a `FhirAuthError`.
 */
import { Client } from '@fhir-auth/client'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { discoverUdapMetadata, parseUdapMetadata, verifySignedMetadata } from '@fhir-auth/udap'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  countHandWrittenCases,
  createUdapServerIdentity,
  damagedText,
  expectTypedOutcome,
  hostileBody,
  hostileStrings,
  literal,
  mutatedBytes,
  mutatedDocument,
  named,
  OutcomeTally,
  printCaseLedger,
  propertySettings,
  renderJson,
  scriptedFetch,
  secretFindings,
  toJsonNode,
  type UdapServerIdentity,
  withMember,
} from '../src/index.js'
import { readUdapMetadata } from './support/read-metadata.js'

const baseUrl = 'https://fhir.hardening.test/r4'
const discoveryUrl = `${baseUrl}/.well-known/udap`
const timeoutMs = 250
const marginMs = 5_000
const backends = [
  named('node', { name: 'node', crypto: createNodeCryptoBackend() }),
  named('webcrypto', { name: 'webcrypto', crypto: createWebCryptoBackend() }),
] as const
const backendArbitrary = fc.constantFrom(...backends)

let identity: UdapServerIdentity

beforeAll(async () => {
  identity = await createUdapServerIdentity(baseUrl)
})
afterAll(() => printCaseLedger('hostile-udap-discovery'))

function isHttps(url: unknown): boolean {
  return typeof url === 'string' && URL.canParse(url) && new URL(url).protocol === 'https:'
}

describe('parseUdapMetadata over mutated documents', () => {
  it('returns the checked document or a DiscoveryError; endpoints it returns are HTTPS', async () => {
    const tally = new OutcomeTally()
    const valid = () => identity.validDocument(new Date())
    await fc.assert(
      fc.asyncProperty(
        fc.constant(null).chain(() => mutatedDocument(valid())),
        async (node) => {
          const json: unknown = JSON.parse(renderJson(node))
          const outcome = tally.record(
            await expectTypedOutcome(
              () =>
                parseUdapMetadata(json, { endpoint: discoveryUrl, allowInsecureLocalhost: false }),
              { maxElapsedMs: marginMs },
            ),
          )
          if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('DiscoveryError')
          else {
            const { document } = outcome.value as ReturnType<typeof parseUdapMetadata>
            expect(isHttps(document.token_endpoint)).toBe(true)
            expect(isHttps(document.registration_endpoint)).toBe(true)
          }
        },
      ),
      propertySettings('parseUdapMetadata mutated', 400),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })
})

/** Verifies one `signed_metadata` JWT against the identity's trust inputs, now. */
function verify(jwt: unknown, crypto: (typeof backends)[number]['crypto']) {
  return verifySignedMetadata({
    jwt: jwt as string,
    baseUrl,
    unsignedMetadata: identity.validDocument(new Date()),
    crypto,
    ...identity.trust,
    now: new Date(),
    allowInsecureLocalhost: false,
  })
}

describe('verifySignedMetadata over hostile JWTs', () => {
  it('mutated claims, signed with the real server key: verified claims or DiscoveryError', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(
        fc.constant(null).chain(() => mutatedDocument(identity.validClaims(new Date()))),
        backendArbitrary,
        async (claims, backend) => {
          const jwt = identity.signNodes(toJsonNode(identity.validHeader()), claims)
          const outcome = tally.record(
            await expectTypedOutcome(() => verify(jwt, backend.crypto), { maxElapsedMs: marginMs }),
          )
          if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('DiscoveryError')
          else {
            const verified = outcome.value as Awaited<ReturnType<typeof verifySignedMetadata>>
            expect(verified.claims.iss).toBe(baseUrl)
            expect(verified.claims.sub).toBe(baseUrl)
            expect(isHttps(verified.claims.token_endpoint)).toBe(true)
            expect(isHttps(verified.claims.registration_endpoint)).toBe(true)
          }
        },
      ),
      propertySettings('verifySignedMetadata re-signed mutated claims', 250),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })

  it('mutated headers (alg, x5c entries, DER of x5c[0]), signed with the real key: DiscoveryError unless still valid', async () => {
    const tally = new OutcomeTally()
    const hostileHeader = fc.oneof(
      fc.constant(null).chain(() => mutatedDocument(identity.validHeader())),
      fc
        .constantFrom('none', 'HS256', 'RS384', 'ES256', 'rs256', 'RS256 ', '')
        .map((alg) => withMember(toJsonNode(identity.validHeader()), 'alg', literal(alg))),
      fc.constant(null).chain(() =>
        mutatedBytes(identity.server.certificateDer).map((der) =>
          toJsonNode({
            alg: 'RS256',
            x5c: [Buffer.from(der).toString('base64'), identity.x5c[1]],
          }),
        ),
      ),
      fc
        .array(fc.constantFrom(...identity.x5c, ...hostileStrings.slice(0, 6)), { maxLength: 4 })
        .map((x5c) => toJsonNode({ alg: 'RS256', x5c })),
    )
    await fc.assert(
      fc.asyncProperty(hostileHeader, backendArbitrary, async (header, backend) => {
        const jwt = identity.signNodes(header, toJsonNode(identity.validClaims(new Date())))
        const outcome = tally.record(
          await expectTypedOutcome(() => verify(jwt, backend.crypto), { maxElapsedMs: marginMs }),
        )
        if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('DiscoveryError')
      }),
      propertySettings('verifySignedMetadata re-signed mutated headers', 250),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })

  it('100 000 levels of nesting in an extra claim, validly signed: claims or DiscoveryError', async () => {
    countHandWrittenCases('verifySignedMetadata deep claims', backends.length * 2)
    for (const backend of backends) {
      for (const container of ['array', 'object'] as const) {
        const claims = withMember(toJsonNode(identity.validClaims(new Date())), 'extension', {
          kind: 'deep',
          depth: 100_000,
          container,
        })
        const jwt = identity.signNodes(toJsonNode(identity.validHeader()), claims)
        const outcome = await expectTypedOutcome(() => verify(jwt, backend.crypto), {
          maxElapsedMs: marginMs,
        })
        // Verified claims carrying the deep extension, or a DiscoveryError: nothing else.
        if (outcome.kind === 'success') expect(outcome.value).toHaveProperty('claims.extension')
        else expect(outcome.error.name).toBe('DiscoveryError')
      }
    }
  })

  it('damaged JWS text and values of other types: DiscoveryError', async () => {
    const tally = new OutcomeTally()
    const validJwt = () => String(identity.validDocument(new Date()).signed_metadata)
    const hostileJwt = fc.oneof(
      fc.constant(null).chain(() => damagedText(validJwt())),
      fc.constant(null).chain(() =>
        fc
          .tuple(fc.nat({ max: 2 }), fc.string({ unit: 'binary', maxLength: 30 }))
          .map(([part, text]) => {
            const parts = validJwt().split('.')
            parts[part] = text
            return parts.join('.')
          }),
      ),
      fc.constantFrom<unknown>(undefined, null, 42, {}, [], ['a.b.c'], 'a.b.c', '..', 'a.b.c.d'),
    )
    await fc.assert(
      fc.asyncProperty(hostileJwt, backendArbitrary, async (jwt, backend) => {
        const outcome = tally.record(
          await expectTypedOutcome(() => verify(jwt, backend.crypto), { maxElapsedMs: marginMs }),
        )
        if (outcome.kind === 'typed-error') {
          expect(['DiscoveryError', 'ConfigurationError']).toContain(outcome.error.name)
        }
      }),
      propertySettings('verifySignedMetadata damaged text', 200),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })
})

const statuses = [200, 200, 200, 200, 201, 204, 302, 400, 404, 500]
const hostileDiscoveryAnswer = () =>
  fc.record({
    status: fc.constantFrom(...statuses),
    contentType: fc.constantFrom('application/json', 'text/html', '', 'application/jwt'),
    body: hostileBody(identity.validDocument(new Date())),
    location: fc.constantFrom(...hostileStrings.slice(2, 12), discoveryUrl),
  })

describe('discoverUdapMetadata over hostile responses', () => {
  it('ends in verified UdapMetadata or DiscoveryError within the timeout', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(
        fc.constant(null).chain(hostileDiscoveryAnswer),
        backendArbitrary,
        async (answer, backend) => {
          const fetch = scriptedFetch(() => ({
            status: answer.status,
            body: answer.body.text,
            headers: { 'content-type': answer.contentType, location: answer.location },
          }))
          const outcome = tally.record(
            await expectTypedOutcome(
              async () =>
                readUdapMetadata(
                  await discoverUdapMetadata({
                    baseUrl,
                    crypto: backend.crypto,
                    ...identity.trust,
                    fetch: fetch.fetch,
                    timeoutMs,
                    logger: createCapturingLogger(),
                  }),
                ),
              { maxElapsedMs: timeoutMs + marginMs },
            ),
          )
          if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('DiscoveryError')
          for (const call of fetch.calls) expect(isHttps(call.url), call.url).toBe(true)
        },
      ),
      propertySettings('discoverUdapMetadata hostile response', 250),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })
})

describe('Client (UDAP) over hostile discovery', () => {
  it('serverMetadata then requestBackendToken: a token or a typed error; no assertion or key in errors', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(
        fc.constant(null).chain(hostileDiscoveryAnswer),
        backendArbitrary,
        async (answer, backend) => {
          const fetch = scriptedFetch((call) =>
            call.url.startsWith(discoveryUrl)
              ? {
                  status: answer.status,
                  body: answer.body.text,
                  headers: { 'content-type': answer.contentType, location: answer.location },
                }
              : {
                  body: JSON.stringify({
                    access_token: 'udap-access-token-value',
                    token_type: 'Bearer',
                    expires_in: 300,
                    scope: 'system/*.rs',
                  }),
                },
          )
          const client = new Client(
            {
              baseUrl,
              clientId: 'hardening-udap-client',
              privateKey: identity.client.privateKeyPem,
              certificateChain: identity.client.chainDer,
              scopes: ['system/*.rs'],
            },
            {
              protocol: 'udap',
              crypto: backend.crypto,
              fetch: fetch.fetch,
              timeoutMs,
              logger: createCapturingLogger(),
            },
          )
          const outcome = tally.record(
            await expectTypedOutcome(
              async () => {
                readUdapMetadata(await client.serverMetadata(identity.trust))
                return client.requestBackendToken({
                  b2b: {
                    organizationId: 'https://org.hardening.test/1',
                    purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
                  },
                  ...identity.trust,
                })
              },
              {
                maxElapsedMs: 2 * timeoutMs + marginMs,
                privateKeyPems: [identity.client.privateKeyPem],
              },
            ),
          )
          const assertions = fetch.calls.flatMap((call) => call.form?.client_assertion ?? [])
          if (outcome.kind === 'typed-error') {
            expect(['DiscoveryError', 'ConfigurationError', 'TokenError']).toContain(
              outcome.error.name,
            )
            expect(secretFindings(outcome.error, { secrets: assertions })).toEqual([])
          }
          for (const call of fetch.calls) expect(isHttps(call.url), call.url).toBe(true)
        },
      ),
      propertySettings('Client UDAP hostile discovery', 150),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    console.info(`[hardening] Client UDAP hostile discovery: ${tally.summary()}`)
  })
})
