/**
 * Hostile SMART discovery documents: mutated `.well-known/smart-configuration` documents
 * through `SmartMetadata.fromJson`, through `discoverSmartConfiguration` with hostile
 * statuses, content types, redirects and bodies, and through `Client` (discovery, then an
 * authorization URL and a code exchange that use the discovered endpoints). Every case ends in
 * success or a `FhirAuthError`, and no request ever goes to a URL the HTTPS policy refuses.
 */
import { Client } from '@fhir-auth/client'
import { discoverSmartConfiguration, SmartMetadata } from '@fhir-auth/smart'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  expectTypedOutcome,
  hostileBody,
  hostileStrings,
  mutatedDocument,
  OutcomeTally,
  printCaseLedger,
  propertySettings,
  renderJson,
  scriptedFetch,
  validSmartConfiguration,
  validTokenResponse,
} from '../src/index.js'
import { readSmartMetadata } from './support/read-metadata.js'

const origin = 'https://ehr.hardening.test'
const baseUrl = `${origin}/fhir`
const discoveryUrl = `${baseUrl}/.well-known/smart-configuration`
const validDocument = validSmartConfiguration(origin)
/** The library timeout of the transport cases, and the margin a loaded machine needs on top. */
const timeoutMs = 250
const marginMs = 4_000

const statuses = [200, 200, 200, 200, 201, 203, 204, 301, 302, 307, 400, 401, 404, 429, 500, 503]
const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'text/html',
  'text/plain',
  'application/jwt',
  'application/json; charset=utf-16',
  '',
]

afterAll(() => printCaseLedger('hostile-smart-discovery'))

/** True for URLs the transport policy lets the library contact in these cases (no loopback here). */
function isHttps(url: string): boolean {
  return URL.canParse(url) && new URL(url).protocol === 'https:'
}

describe('SmartMetadata.fromJson over mutated documents', () => {
  it('wraps or refuses with DiscoveryError; accessors, predicates and validate never throw', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(mutatedDocument(validDocument), async (node) => {
        const json: unknown = JSON.parse(renderJson(node))
        const outcome = await expectTypedOutcome(
          () =>
            readSmartMetadata(SmartMetadata.fromJson(json, { baseUrl, endpoint: discoveryUrl })),
          { maxElapsedMs: marginMs },
        )
        tally.record(outcome)
        if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('DiscoveryError')
      }),
      propertySettings('SmartMetadata.fromJson mutated', 500),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })
})

/** A hostile discovery answer: status, content type, body and (for redirects) a Location. */
const hostileDiscoveryAnswer = fc.record({
  status: fc.constantFrom(...statuses),
  contentType: fc.constantFrom(...contentTypes),
  body: hostileBody(validDocument),
  location: fc.constantFrom(...hostileStrings, discoveryUrl, `${origin}/elsewhere`),
})

describe('discoverSmartConfiguration over hostile responses', () => {
  it('ends in SmartMetadata or DiscoveryError within the timeout, contacting HTTPS URLs only', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(hostileDiscoveryAnswer, async (answer) => {
        const fetch = scriptedFetch(() => ({
          status: answer.status,
          body: answer.body.text,
          headers: { 'content-type': answer.contentType, location: answer.location },
        }))
        const outcome = await expectTypedOutcome(
          async () =>
            readSmartMetadata(
              await discoverSmartConfiguration({ baseUrl, fetch: fetch.fetch, timeoutMs }),
            ),
          { maxElapsedMs: timeoutMs + marginMs },
        )
        tally.record(outcome)
        if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('DiscoveryError')
        for (const call of fetch.calls) expect(isHttps(call.url), call.url).toBe(true)
      }),
      propertySettings('discoverSmartConfiguration hostile response', 400),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })
})

describe('Client over hostile discovery', () => {
  const clientTypes = ['public', 'confidential_symmetric'] as const

  it('authorizationUrl and requestAccessToken end in a result or a typed error; endpoints used are HTTPS', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(
        hostileDiscoveryAnswer,
        fc.constantFrom(...clientTypes),
        fc.constantFrom('get' as const, 'post' as const),
        fc.base64String({ minLength: 24, maxLength: 48 }),
        async (answer, clientType, method, secretSeed) => {
          const code = `code-${secretSeed}`
          const clientSecret = `secret-${secretSeed}`
          const fetch = scriptedFetch((call) =>
            call.url === discoveryUrl
              ? {
                  status: answer.status,
                  body: answer.body.text,
                  headers: { 'content-type': answer.contentType, location: answer.location },
                }
              : {
                  body: JSON.stringify(validTokenResponse(`at-${secretSeed}`, `rt-${secretSeed}`)),
                },
          )
          const client = new Client(
            {
              baseUrl,
              clientId: 'hardening-app',
              redirectUri: 'https://app.hardening.test/callback',
              scopes: ['launch/patient', 'patient/*.rs', 'offline_access'],
              clientSecret,
            },
            { clientType, fetch: fetch.fetch, timeoutMs, logger: createCapturingLogger() },
          )
          let codeVerifier = ''
          let authUrl: string | undefined
          const outcome = await expectTypedOutcome(
            async () => {
              const authorization = await client.authorizationUrl({ method })
              codeVerifier = authorization.codeVerifier
              authUrl = authorization.authUrl
              return client.requestAccessToken({ code, codeVerifier })
            },
            { maxElapsedMs: 3 * timeoutMs + marginMs, secrets: [code, clientSecret] },
          )
          tally.record(outcome)
          if (outcome.kind === 'typed-error') {
            expect(['DiscoveryError', 'ConfigurationError', 'TokenError']).toContain(
              outcome.error.name,
            )
          }
          if (authUrl !== undefined) expect(isHttps(authUrl), authUrl).toBe(true)
          for (const call of fetch.calls) expect(isHttps(call.url), call.url).toBe(true)
          if (codeVerifier !== '') {
            // The verifier only exists once the URL was built; it must not be in the error either.
            if (outcome.kind === 'typed-error') {
              expect(JSON.stringify(outcome.error)).not.toContain(codeVerifier)
              expect(String(outcome.error.stack)).not.toContain(codeVerifier)
            }
          }
        },
      ),
      propertySettings('Client SMART hostile discovery', 250),
    )
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    console.info(`[hardening] Client SMART hostile discovery: ${tally.summary()}`)
  })
})
