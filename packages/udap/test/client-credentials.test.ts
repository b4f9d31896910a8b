import { ConfigurationError, HttpError, type JwsSigner, TokenError } from '@fhir-auth/core'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { type ExpectedRequest, fakeFetch, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type B2bExtensionInput,
  buildB2bExtension,
  prepareUdapSigner,
  requestUdapClientCredentialsToken,
  type UdapClientCredentialsOptions,
} from '../src/index.js'
import { clientUri, createTestPki, type TestPki, tokenEndpoint } from './support/pki.js'
import { verifyWithX5c } from './support/verify.js'

const crypto = webCryptoBackend
const treatment = 'urn:oid:2.16.840.1.113883.5.8#TREAT'
const context: B2bExtensionInput = {
  organizationId: 'https://example.org/organizations/42',
  purposeOfUse: [treatment],
}
let pki: TestPki
let signer: JwsSigner

beforeAll(async () => {
  pki = await createTestPki()
  signer = (
    await prepareUdapSigner({
      crypto,
      privateKey: pki.clientEc.privateKeyPem,
      certificateChain: pki.clientEc.chainDer,
      clientUri,
      advertisedAlgorithms: ['RS256', 'ES256'],
      now: pki.now,
    })
  ).signer
})

function refusedOn(attribute: string, call: () => unknown): void {
  let caught: unknown
  try {
    call()
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(ConfigurationError)
  expect((caught as ConfigurationError).invalidAttribute).toBe(attribute)
}

describe('buildB2bExtension', () => {
  it('builds the hl7-b2b object with version "1" and snake_case members', () => {
    const extension = buildB2bExtension({
      ...context,
      organizationName: 'Example Health',
      subjectName: 'Dr. Jane Example',
      subjectId: 'urn:oid:2.16.840.1.113883.4.6#1234567890',
      subjectRole: 'http://nucc.org/provider-taxonomy#207Q00000X',
      consentPolicy: ['https://example.org/policies/opt-in'],
      consentReference: ['https://fhir.example.org/Consent/1'],
    })
    expect(extension).toEqual({
      version: '1',
      subject_name: 'Dr. Jane Example',
      subject_id: 'urn:oid:2.16.840.1.113883.4.6#1234567890',
      subject_role: 'http://nucc.org/provider-taxonomy#207Q00000X',
      organization_name: 'Example Health',
      organization_id: 'https://example.org/organizations/42',
      purpose_of_use: [treatment],
      consent_policy: ['https://example.org/policies/opt-in'],
      consent_reference: ['https://fhir.example.org/Consent/1'],
    })
    expect(Object.isFrozen(extension)).toBe(true)
  })

  it('omits the members not given', () => {
    expect(buildB2bExtension(context)).toEqual({
      version: '1',
      organization_id: context.organizationId,
      purpose_of_use: [treatment],
    })
  })

  it('requires organizationId as an absolute URI', () => {
    refusedOn('b2b.organizationId', () =>
      buildB2bExtension({ ...context, organizationId: undefined as never }),
    )
    refusedOn('b2b.organizationId', () =>
      buildB2bExtension({ ...context, organizationId: 'Example Health' }),
    )
    expect(buildB2bExtension({ ...context, organizationId: 'urn:oid:1.2.3' }).organization_id).toBe(
      'urn:oid:1.2.3',
    )
  })

  it('requires at least one non-blank purpose of use', () => {
    refusedOn('b2b.purposeOfUse', () =>
      buildB2bExtension({ ...context, purposeOfUse: undefined as never }),
    )
    refusedOn('b2b.purposeOfUse', () => buildB2bExtension({ ...context, purposeOfUse: [] }))
    refusedOn('b2b.purposeOfUse', () =>
      buildB2bExtension({ ...context, purposeOfUse: [treatment, ' '] }),
    )
    refusedOn('b2b.purposeOfUse', () =>
      buildB2bExtension({ ...context, purposeOfUse: treatment as never }),
    )
  })

  it('allows subjectId and subjectRole only with subjectName', () => {
    refusedOn('b2b.subjectId', () => buildB2bExtension({ ...context, subjectId: '123' }))
    refusedOn('b2b.subjectRole', () => buildB2bExtension({ ...context, subjectRole: 'nurse' }))
    expect(buildB2bExtension({ ...context, subjectName: 'Batch job' })).toHaveProperty(
      'subject_name',
      'Batch job',
    )
  })

  it('allows consentReference only with consentPolicy, as absolute HTTP(S) URLs', () => {
    refusedOn('b2b.consentReference', () =>
      buildB2bExtension({ ...context, consentReference: ['https://fhir.example.org/Consent/1'] }),
    )
    const policy = { ...context, consentPolicy: ['urn:example:policy'] }
    refusedOn('b2b.consentReference', () =>
      buildB2bExtension({ ...policy, consentReference: ['urn:example:consent'] }),
    )
    refusedOn('b2b.consentReference', () => buildB2bExtension({ ...policy, consentReference: [] }))
    refusedOn('b2b.consentPolicy', () =>
      buildB2bExtension({ ...context, consentPolicy: ['not a uri'] }),
    )
  })

  it('refuses blank optional text and a non-object input', () => {
    refusedOn('b2b.organizationName', () => buildB2bExtension({ ...context, organizationName: '' }))
    refusedOn('b2b.subjectName', () => buildB2bExtension({ ...context, subjectName: 5 as never }))
    refusedOn('b2b', () => buildB2bExtension(null as never))
  })
})

describe('requestUdapClientCredentialsToken', () => {
  /** One token request answered by `respond`; without `respond`, no request may be made. */
  function request(
    respond: ExpectedRequest['respond'] | undefined,
    overrides: Partial<UdapClientCredentialsOptions> = {},
  ) {
    const url = overrides.tokenEndpoint ?? tokenEndpoint
    const fetch = respond === undefined ? fakeFetch() : fakeFetch({ method: 'POST', url, respond })
    const result = requestUdapClientCredentialsToken({
      tokenEndpoint,
      issuer: 'client-123',
      signer,
      scopes: ['system/Patient.rs', 'system/Observation.rs'],
      b2b: context,
      fetch,
      ...overrides,
    })
    return { fetch, result }
  }

  async function tokenFailure(promise: Promise<unknown>): Promise<TokenError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(TokenError)
    return error as TokenError
  }

  it('POSTs the client_credentials form with a UDAP authentication token and udap=1', async () => {
    const body = {
      access_token: 'token-value',
      token_type: 'Bearer',
      expires_in: 300,
      scope: 'system/Patient.rs',
    }
    const { fetch, result } = request(() => jsonResponse(body))
    await expect(result).resolves.toEqual(body)
    const [sent] = fetch.calls
    expect(sent).toMatchObject({ method: 'POST', url: tokenEndpoint, redirect: 'manual' })
    expect(sent?.headers.get('authorization')).toBeNull()
    expect(sent?.headers.get('content-type')).toBe('application/x-www-form-urlencoded')
    const form = new URLSearchParams(sent?.bodyText)
    expect([...form.keys()].sort()).toEqual([
      'client_assertion',
      'client_assertion_type',
      'grant_type',
      'scope',
      'udap',
    ])
    expect(form.get('grant_type')).toBe('client_credentials')
    expect(form.get('scope')).toBe('system/Patient.rs system/Observation.rs')
    expect(form.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    )
    expect(form.get('udap')).toBe('1')
    const { header, claims } = await verifyWithX5c(form.get('client_assertion') ?? '')
    expect(Object.keys(header).sort()).toEqual(['alg', 'x5c'])
    expect(claims).toMatchObject({ iss: 'client-123', sub: 'client-123', aud: tokenEndpoint })
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300)
    expect(claims.extensions).toEqual({ 'hl7-b2b': buildB2bExtension(context) })
  })

  it('sends no extensions without b2b, and other extensions beside hl7-b2b', async () => {
    const plain = request(() => jsonResponse({ access_token: 't' }), { b2b: undefined })
    await plain.result
    const plainClaims = (
      await verifyWithX5c(
        new URLSearchParams(plain.fetch.calls[0]?.bodyText).get('client_assertion') ?? '',
      )
    ).claims
    expect(plainClaims).not.toHaveProperty('extensions')
    const both = request(() => jsonResponse({ access_token: 't' }), {
      extensions: { 'tefca-ias': { version: '1' } },
    })
    await both.result
    const bothClaims = (
      await verifyWithX5c(
        new URLSearchParams(both.fetch.calls[0]?.bodyText).get('client_assertion') ?? '',
      )
    ).claims
    expect(Object.keys(bothClaims.extensions as object).sort()).toEqual(['hl7-b2b', 'tefca-ias'])
  })

  it('uses the client URI as issuer in the unregistered flow', async () => {
    const { fetch, result } = request(() => jsonResponse({ access_token: 't' }), {
      issuer: clientUri,
    })
    await result
    const { claims } = await verifyWithX5c(
      new URLSearchParams(fetch.calls[0]?.bodyText).get('client_assertion') ?? '',
    )
    expect(claims).toMatchObject({ iss: clientUri, sub: clientUri })
  })

  it('reports an OAuth error response as TokenError with its fields', async () => {
    const body = {
      error: 'invalid_client',
      error_description: 'certificate revoked',
      error_uri: 'https://auth.example.test/e',
    }
    const error = await tokenFailure(request(() => jsonResponse(body, 401)).result)
    expect(error).toMatchObject({
      status: 401,
      error: 'invalid_client',
      errorDescription: 'certificate revoked',
      errorUri: 'https://auth.example.test/e',
    })
  })

  it('refuses a success without access_token, naming only the fields received', async () => {
    const error = await tokenFailure(
      request(() => jsonResponse({ token_type: 'Bearer', refresh: 'secret-value' })).result,
    )
    expect(error.message).toMatch(
      /no non-blank string access_token \(received fields: token_type, refresh\)/,
    )
    expect(error.message).not.toContain('secret-value')
  })

  it('reports a transport failure as TokenError with the HttpError as cause', async () => {
    const error = await tokenFailure(
      request(() => Promise.reject(new TypeError('fetch failed'))).result,
    )
    expect(error.cause).toBeInstanceOf(HttpError)
  })

  it('never puts the assertion into error messages', async () => {
    let assertion = ''
    const { result } = request((sent) => {
      assertion = new URLSearchParams(sent.bodyText).get('client_assertion') ?? ''
      return jsonResponse(
        { error: 'invalid_request', error_description: `bad assertion ${assertion}` },
        400,
      )
    })
    const error = await tokenFailure(result)
    expect(assertion.length).toBeGreaterThan(100)
    expect(error.message).not.toContain(assertion)
    expect(error.errorDescription).not.toContain(assertion)
  })

  describe('checks before any request', () => {
    const cases: [string, Partial<UdapClientCredentialsOptions>, string][] = [
      [
        'an HTTP token endpoint',
        { tokenEndpoint: 'http://auth.example.test/token' },
        'tokenEndpoint',
      ],
      ['a blank issuer', { issuer: '' }, 'issuer'],
      ['no scopes', { scopes: [] }, 'scopes'],
      ['scopes that are not an array', { scopes: 'system/Patient.rs' as never }, 'scopes'],
      ['a scope with a space', { scopes: ['system/Patient.rs system/Observation.rs'] }, 'scopes'],
      [
        'an invalid b2b context',
        { b2b: { ...context, organizationId: 'nope' } },
        'b2b.organizationId',
      ],
      ['hl7-b2b twice', { extensions: { 'hl7-b2b': {} } }, 'extensions'],
      [
        'a signer without a chain',
        { signer: { alg: 'ES256', sign: async () => new Uint8Array(64) } },
        'signer',
      ],
    ]
    for (const [name, overrides, attribute] of cases) {
      it(`refuses ${name}`, async () => {
        const { fetch, result } = request(undefined, overrides)
        await expect(result).rejects.toMatchObject({
          name: 'ConfigurationError',
          invalidAttribute: attribute,
        })
        expect(fetch.calls).toHaveLength(0)
      })
    }
  })
})
