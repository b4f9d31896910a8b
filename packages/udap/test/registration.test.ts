import { HttpError, RegistrationError } from '@fhir-auth/core'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { type ExpectedRequest, fakeFetch, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  cancelUdapRegistration,
  createSoftwareStatement,
  normalizeRegistrationMetadata,
  prepareUdapSigner,
  registerUdapClient,
  type UdapRegistrationRequestOptions,
} from '../src/index.js'
import { clientUri, createTestPki, registrationEndpoint } from './support/pki.js'
import { verifyWithX5c } from './support/verify.js'

const crypto = webCryptoBackend
const metadata = {
  client_name: 'Example B2B client',
  contacts: ['mailto:ops@example.org'],
  scope: 'system/Patient.rs',
}
const certification = 'eyJhbGciOiJSUzI1NiJ9.eyJjZXJ0aWZpY2F0aW9uX25hbWUiOiJ4In0.c2lnbmF0dXJl'
let registrationStatement: string
let cancellationStatement: string

beforeAll(async () => {
  const pki = await createTestPki()
  const { signer } = await prepareUdapSigner({
    crypto,
    privateKey: pki.clientEc.privateKeyPem,
    certificateChain: pki.clientEc.chainDer,
    clientUri,
    advertisedAlgorithms: ['ES256'],
    now: pki.now,
  })
  const sign = (operation: 'register' | 'cancel', input: Record<string, unknown>) =>
    createSoftwareStatement({
      claims: normalizeRegistrationMetadata(input, { operation }),
      clientUri,
      registrationEndpoint,
      signer,
    })
  registrationStatement = await sign('register', {
    ...metadata,
    grant_types: ['client_credentials'],
  })
  cancellationStatement = await sign('cancel', metadata)
})

type Respond = ExpectedRequest['respond']

/** The fake registration endpoint: one POST answered by `respond`, or no request at all. */
function registrationFetch(respond: Respond | undefined, endpoint: string | undefined) {
  const url = endpoint ?? registrationEndpoint
  return respond === undefined ? fakeFetch() : fakeFetch({ method: 'POST', url, respond })
}

function register(
  respond: Respond | undefined,
  overrides: Partial<UdapRegistrationRequestOptions> = {},
) {
  const fetch = registrationFetch(respond, overrides.registrationEndpoint)
  const result = registerUdapClient({
    registrationEndpoint,
    softwareStatement: registrationStatement,
    fetch,
    ...overrides,
  })
  return { fetch, result }
}

function cancel(
  respond: Respond | undefined,
  overrides: Partial<UdapRegistrationRequestOptions> = {},
) {
  const fetch = registrationFetch(respond, overrides.registrationEndpoint)
  const result = cancelUdapRegistration({
    registrationEndpoint,
    softwareStatement: cancellationStatement,
    fetch,
    ...overrides,
  })
  return { fetch, result }
}

async function registrationFailure(promise: Promise<unknown>): Promise<RegistrationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(RegistrationError)
  return error as RegistrationError
}

describe('registerUdapClient', () => {
  it('POSTs the statement as JSON with udap "1" and returns a 201 body as received', async () => {
    const body = {
      client_id: 'client-123',
      client_name: 'Example B2B client',
      grant_types: ['client_credentials'],
      extra: 1,
    }
    const { fetch, result } = register(() => jsonResponse(body, 201))
    await expect(result).resolves.toEqual(body)
    const [request] = fetch.calls
    expect(request).toMatchObject({ method: 'POST', url: registrationEndpoint, redirect: 'manual' })
    expect(request?.headers.get('content-type')).toBe('application/json')
    expect(request?.headers.get('authorization')).toBeNull()
    expect(JSON.parse(request?.bodyText ?? '')).toEqual({
      software_statement: registrationStatement,
      udap: '1',
    })
    expect((await verifyWithX5c(registrationStatement)).claims.aud).toBe(registrationEndpoint)
  })

  it('accepts 200 as a modification of an existing registration', async () => {
    await expect(
      register(() => jsonResponse({ client_id: 'client-123' }, 200)).result,
    ).resolves.toEqual({ client_id: 'client-123' })
  })

  it('refuses a response with empty grant_types: the IG makes it a cancellation confirmation', async () => {
    for (const status of [200, 201]) {
      const error = await registrationFailure(
        register(() => jsonResponse({ client_id: 'client-123', grant_types: [] }, status)).result,
      )
      expect(error.status).toBe(status)
      expect(error.message).toMatch(/grant_types is empty.*cancelled/)
      expect(error.message).not.toContain(registrationStatement)
    }
  })

  it('sends certifications when given', async () => {
    const { fetch, result } = register(() => jsonResponse({ client_id: 'c' }, 201), {
      certifications: [certification],
    })
    await result
    expect(JSON.parse(fetch.calls[0]?.bodyText ?? '')).toEqual({
      software_statement: registrationStatement,
      udap: '1',
      certifications: [certification],
    })
  })

  it('refuses a success without a non-empty string client_id', async () => {
    for (const body of [{}, { client_id: '' }, { client_id: 42 }]) {
      const error = await registrationFailure(register(() => jsonResponse(body, 201)).result)
      expect(error.message).toMatch(/no non-empty string client_id/)
      expect(error.status).toBe(201)
    }
  })

  it('refuses other success statuses and bodies that are not JSON objects', async () => {
    const accepted = await registrationFailure(
      register(() => jsonResponse({ client_id: 'c' }, 202)).result,
    )
    expect(accepted.message).toMatch(/HTTP 202; expected 200 or 201/)
    const html = await registrationFailure(
      register(() => new Response('<html>', { status: 201 })).result,
    )
    expect(html.cause).toBeInstanceOf(HttpError)
  })

  for (const code of [
    'invalid_software_statement',
    'unapproved_software_statement',
    'invalid_client_metadata',
    'invalid_redirect_uri',
    'unapproved_certification',
  ]) {
    it(`reports ${code} with the OAuth error fields`, async () => {
      const body = {
        error: code,
        error_description: 'the statement was refused',
        error_uri: 'https://auth.example.test/errors',
      }
      const error = await registrationFailure(register(() => jsonResponse(body, 400)).result)
      expect(error).toMatchObject({
        status: 400,
        error: code,
        errorDescription: 'the statement was refused',
        errorUri: 'https://auth.example.test/errors',
      })
      expect(error.message).toContain(code)
    })
  }

  it('reports an error status without an OAuth body by its status', async () => {
    const error = await registrationFailure(
      register(() => new Response('bad gateway', { status: 502 })).result,
    )
    expect(error).toMatchObject({ status: 502, error: undefined })
  })

  it('reports a transport failure and a redirect as RegistrationError with the HttpError as cause', async () => {
    const network = await registrationFailure(
      register(() => Promise.reject(new TypeError('fetch failed'))).result,
    )
    expect(network.cause).toBeInstanceOf(HttpError)
    const redirect = await registrationFailure(
      register(
        () =>
          new Response(null, { status: 307, headers: { location: 'https://elsewhere.example/' } }),
      ).result,
    )
    expect((redirect.cause as HttpError).reason).toBe('redirect')
  })

  it('never puts the software statement into error messages', async () => {
    const echo = {
      error: 'invalid_software_statement',
      error_description: `bad statement ${registrationStatement}`,
    }
    const error = await registrationFailure(register(() => jsonResponse(echo, 400)).result)
    expect(error.message).not.toContain(registrationStatement)
    expect(error.errorDescription).not.toContain(registrationStatement)
    const thrown = await registrationFailure(
      register(() => Promise.reject(new Error(`failed sending ${registrationStatement}`))).result,
    )
    expect(
      JSON.stringify({ message: thrown.message, cause: String((thrown.cause as Error).cause) }),
    ).not.toContain(registrationStatement)
  })

  describe('checks before any request', () => {
    const cases: [string, Partial<UdapRegistrationRequestOptions>, string][] = [
      [
        'an HTTP registration endpoint',
        { registrationEndpoint: 'http://auth.example.test/register' },
        'registrationEndpoint',
      ],
      [
        'a relative registration endpoint',
        { registrationEndpoint: '/register' },
        'registrationEndpoint',
      ],
      ['a statement that is not a JWS', { softwareStatement: 'statement' }, 'softwareStatement'],
      [
        'a statement whose payload is not JSON',
        { softwareStatement: 'eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.c2ln' },
        'softwareStatement',
      ],
      ['certifications that are not JWSs', { certifications: ['x'] }, 'certifications'],
      [
        'certifications that are not an array',
        { certifications: certification as never },
        'certifications',
      ],
    ]
    for (const [name, overrides, attribute] of cases) {
      it(`refuses ${name}`, async () => {
        const { fetch, result } = register(undefined, overrides)
        await expect(result).rejects.toMatchObject({
          name: 'ConfigurationError',
          invalidAttribute: attribute,
        })
        expect(fetch.calls).toHaveLength(0)
      })
    }

    it('refuses a cancellation statement, which would cancel instead of register', async () => {
      const { fetch, result } = register(undefined, {
        softwareStatement: cancellationStatement,
      })
      await expect(result).rejects.toMatchObject({
        invalidAttribute: 'softwareStatement',
        message: expect.stringMatching(/cancelUdapRegistration/),
      })
      expect(fetch.calls).toHaveLength(0)
    })

    it('accepts a loopback HTTP endpoint under allowInsecureLocalhost', async () => {
      const loopback = 'http://127.0.0.1:8080/register'
      const { fetch, result } = register(() => jsonResponse({ client_id: 'c' }, 201), {
        registrationEndpoint: loopback,
        allowInsecureLocalhost: true,
      })
      await result
      expect(fetch.calls[0]?.url).toBe(loopback)
    })
  })
})

describe('cancelUdapRegistration', () => {
  it('sends the cancellation statement and returns a response with empty grant_types', async () => {
    const body = { client_id: 'client-123', grant_types: [] }
    const { fetch, result } = cancel(() => jsonResponse(body, 200))
    await expect(result).resolves.toEqual(body)
    expect(JSON.parse(fetch.calls[0]?.bodyText ?? '')).toEqual({
      software_statement: cancellationStatement,
      udap: '1',
    })
    expect((await verifyWithX5c(cancellationStatement)).claims.grant_types).toEqual([])
  })

  it('refuses a response whose grant_types is not an empty array', async () => {
    for (const [body, pattern] of [
      [{ client_id: 'c', grant_types: ['client_credentials'] }, /grant_types is not empty/],
      [{ client_id: 'c' }, /grant_types is missing/],
      [{ client_id: 'c', grant_types: '' }, /grant_types is a blank string/],
    ] as const) {
      const error = await registrationFailure(cancel(() => jsonResponse(body, 200)).result)
      expect(error.message).toMatch(pattern)
    }
  })

  it('refuses a confirmation without client_id', async () => {
    const error = await registrationFailure(
      cancel(() => jsonResponse({ grant_types: [] }, 200)).result,
    )
    expect(error.message).toMatch(/client_id/)
  })

  it('refuses a registration statement before any request', async () => {
    const { fetch, result } = cancel(undefined, { softwareStatement: registrationStatement })
    await expect(result).rejects.toMatchObject({ invalidAttribute: 'softwareStatement' })
    expect(fetch.calls).toHaveLength(0)
  })

  it('reports UDAP error codes', async () => {
    const error = await registrationFailure(
      cancel(() => jsonResponse({ error: 'unapproved_software_statement' }, 400)).result,
    )
    expect(error.error).toBe('unapproved_software_statement')
  })
})
