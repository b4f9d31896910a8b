/**
 * DESIGN §10, registration for the authorization code: `grant_types`, `response_types` set by the
 * library (another caller value refused), `redirect_uris` (HTTPS, loopback HTTP only under the
 * policy) and `logo_uri` (HTTPS) required, all checked before any request.
 */
import { ConfigurationError, FhirAuthError } from '@fhir-auth/client'
import { fakeRoutes } from '@fhir-auth/test-utils/fake-fetch'
import { describe, expect, it } from 'vitest'
import { inspectJws } from '../support/jws-inspection.js'
import {
  codeMetadata,
  issueIdentity,
  rejectionOf,
  trustOf,
  udapClient,
  useCodeSandbox,
} from './support/context.js'

const probe = useCodeSandbox()

/** The software statement claims of the last registration request the sandbox received. */
function lastStatementClaims(): Record<string, unknown> {
  const request = [...probe.sandbox.requests].reverse().find((r) => r.path.endsWith('/register'))
  const body = request?.json as { software_statement?: string } | undefined
  if (typeof body?.software_statement !== 'string') throw new Error('no registration request')
  return inspectJws(body.software_statement).claims
}

async function register(
  metadata: Record<string, unknown>,
  config: Record<string, unknown> = {},
): Promise<{ result: unknown; error: unknown; requestsSent: number }> {
  const identity = await issueIdentity(probe.sandbox)
  const client = udapClient(probe.sandbox, identity, { flow: 'b2c' }, config)
  const before = probe.sandbox.requests.length
  let result: unknown
  let error: unknown
  try {
    result = await client.registerClient(metadata, {
      clientUri: identity.clientUri,
      ...trustOf(probe.sandbox.trust),
    })
  } catch (caught) {
    error = caught
  }
  return { result, error, requestsSent: probe.sandbox.requests.length - before }
}

/** Asserts a local refusal: a typed ConfigurationError naming `attribute`, and no request at all. */
function expectRefusedLocally(
  outcome: { error: unknown; requestsSent: number },
  attribute: string | RegExp,
): void {
  expect(outcome.error).toBeInstanceOf(ConfigurationError)
  const invalidAttribute = (outcome.error as ConfigurationError).invalidAttribute
  if (typeof attribute === 'string') expect(invalidAttribute).toBe(attribute)
  else expect(invalidAttribute).toMatch(attribute)
  expect(outcome.requestsSent).toBe(0)
}

/** Registers conformant metadata with `attribute` left out (`undefined`) or set to `value`. */
async function expectAttributeRefused(
  attribute: 'redirect_uris' | 'logo_uri',
  value: unknown,
): Promise<void> {
  const metadata = codeMetadata('openid')
  if (value === undefined) delete metadata[attribute]
  else metadata[attribute] = value
  expectRefusedLocally(await register(metadata), attribute)
}

describe('grant types and response types (DESIGN §10)', () => {
  it.each([[['authorization_code']], [['authorization_code', 'refresh_token']]])(
    'registers grant_types %j with response_types ["code"] set by the library',
    async (grantTypes) => {
      const outcome = await register(codeMetadata('openid user/*.rs', { grant_types: grantTypes }))
      expect(outcome.error).toBeUndefined()
      const claims = lastStatementClaims()
      expect(claims.grant_types).toEqual(grantTypes)
      expect(claims.response_types).toEqual(['code'])
      expect(claims.redirect_uris).toEqual(['https://app.example.test/cb'])
      expect(claims.logo_uri).toBe('https://app.example.test/logo.png')
      expect(claims.token_endpoint_auth_method).toBe('private_key_jwt')
    },
  )

  it('accepts a caller-given response_types ["code"] (the same value)', async () => {
    const outcome = await register(codeMetadata('openid', { response_types: ['code'] }))
    expect(outcome.error).toBeUndefined()
    expect(lastStatementClaims().response_types).toEqual(['code'])
  })

  it.each([
    ['["token"]', ['token']],
    ['["code","token"]', ['code', 'token']],
    ['["code id_token"]', ['code id_token']],
    ['[]', []],
    ['the string "code" (not an array)', 'code'],
    ['a number', 1],
    ['null', null],
  ])('refuses caller response_types %s before any request', async (_label, value) => {
    const outcome = await register(codeMetadata('openid', { response_types: value }))
    expectRefusedLocally(outcome, 'response_types')
  })

  it.each([
    ['refresh_token alone', ['refresh_token']],
    ['authorization_code with client_credentials', ['authorization_code', 'client_credentials']],
    ['implicit', ['implicit']],
  ])('refuses grant_types %s with redirect URIs before any request', async (_label, grantTypes) => {
    const outcome = await register(codeMetadata('openid', { grant_types: grantTypes }))
    expect(outcome.error).toBeInstanceOf(FhirAuthError)
    expect(outcome.requestsSent).toBe(0)
  })
})

describe('redirect_uris (DESIGN §10)', () => {
  it.each([
    ['missing', undefined],
    ['an empty array', []],
    ['a string instead of an array', 'https://app.example.test/cb'],
    ['plain HTTP on a public host', ['http://app.example.test/cb']],
    [
      'an HTTPS and a plain HTTP one',
      ['https://app.example.test/cb', 'http://app.example.test/cb'],
    ],
    ['not a URL', ['app/cb']],
    ['a custom scheme', ['com.example.app:/cb']],
    ['a non-string entry', [42]],
  ])('refuses redirect_uris %s before any request', async (_label, value) => {
    await expectAttributeRefused('redirect_uris', value)
  })

  it('refuses loopback HTTP redirect URIs without allowInsecureLocalhost, before any request', async () => {
    // The sandbox itself is loopback HTTP, so the client needs the policy for discovery; the
    // probe therefore checks the refusal on a client without the policy (no request possible).
    const identity = await issueIdentity(probe.sandbox)
    const routes = fakeRoutes({})
    const client = udapClient(
      probe.sandbox,
      identity,
      { flow: 'b2c', fetch: routes.fetch },
      { baseUrl: 'https://udap.example.test/fhir', allowInsecureLocalhost: false },
    )
    const error = await rejectionOf(() =>
      client.registerClient(
        codeMetadata('openid', { redirect_uris: ['http://127.0.0.1:8765/cb'] }),
        {
          clientUri: identity.clientUri,
          ...trustOf(probe.sandbox.trust),
        },
      ),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe('redirect_uris')
    expect(routes.requests).toHaveLength(0)
  })

  it.each(['http://127.0.0.1:8765/cb', 'http://localhost:8765/cb', 'http://[::1]:8765/cb'])(
    'sends loopback HTTP redirect URI %s under allowInsecureLocalhost',
    async (uri) => {
      const outcome = await register(codeMetadata('openid', { redirect_uris: [uri] }))
      expect(outcome.requestsSent).toBeGreaterThan(0)
      expect(lastStatementClaims().redirect_uris).toEqual([uri])
    },
  )
})

describe('logo_uri (DESIGN §10)', () => {
  it.each([
    ['missing', undefined],
    ['plain HTTP', 'http://app.example.test/logo.png'],
    ['loopback HTTP (the policy is for endpoints, not logos)', 'http://127.0.0.1/logo.png'],
    ['not a URL', 'logo.png'],
    ['an empty string', ''],
    ['an array', ['https://app.example.test/logo.png']],
    ['a number', 7],
  ])('refuses logo_uri %s before any request', async (_label, value) => {
    await expectAttributeRefused('logo_uri', value)
  })
})
