/**
 * What the server refuses reaches the caller as a typed error carrying the server's answer:
 * `RegistrationError` / `TokenError` with `status`, `error` and `errorDescription` — and never
 * the software statement or authentication token that was refused.
 */
import { RegistrationError, TokenError } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { testPki } from '@fhir-auth/test-pki'
import { createCertificateAuthority, type IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { SecretScanner } from '@fhir-auth/test-utils'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  clientAssertionOf,
  countsOf,
  requestsTo,
  softwareStatementOf,
} from './support/sandbox-requests.js'
import {
  b2bContext,
  clientCredentialsRegistration,
  createUdapClient,
  identityOf,
  type TrustInputs,
  trustInputsOf,
} from './support/udap-test-context.js'

const minute = 60 * 1000
const day = 24 * 60 * minute

let sandbox: UdapSandbox
let trust: TrustInputs
let trusted: IssuedCertificate
let unknownIssuer: IssuedCertificate
/** Every error a test here caught, for the secret scan at the end. */
const caught: unknown[] = []

beforeAll(async () => {
  sandbox = await startUdapSandbox()
  trust = trustInputsOf(sandbox.trust)
  const now = Date.now()
  const unknownRoot = await createCertificateAuthority({
    name: 'A root the sandbox never heard of',
    notBefore: new Date(now - day),
    notAfter: new Date(now + 365 * day),
  })
  ;[trusted, unknownIssuer] = await Promise.all([
    sandbox.certificateAuthority.issue({
      commonName: 'Trusted client',
      sanUris: ['https://client.example.test/trusted', 'https://client.example.test/revoked'],
      keyType: 'p256',
    }),
    unknownRoot.issue({
      commonName: 'Client of an unknown CA',
      sanUris: ['https://client.example.test/unknown-ca'],
      keyType: 'p256',
    }),
  ])
})
afterAll(() => sandbox.close())

async function registrationFailure(
  operation: Promise<unknown>,
): Promise<{ error: RegistrationError; registrationRequests: number }> {
  const before = countsOf(sandbox).registration
  const error = await failureOf(operation, RegistrationError)
  caught.push(error)
  return { error, registrationRequests: countsOf(sandbox).registration - before }
}

describe('registration refused by the server', () => {
  it('a certificate from a CA the server does not trust: unapproved_software_statement', async () => {
    const clientUri = 'https://client.example.test/unknown-ca'
    const client = createUdapClient(sandbox, identityOf(unknownIssuer))
    const { error, registrationRequests } = await registrationFailure(
      client.registerClient(clientCredentialsRegistration, { clientUri, ...trust }),
    )
    expect(registrationRequests).toBe(1)
    expect(error.status).toBe(400)
    expect(error.error).toBe('unapproved_software_statement')
    expect(error.errorDescription).toEqual(expect.any(String))
    expect(error.message).toContain('unapproved_software_statement')
    const registered = [...sandbox.registrations.values()].map((entry) => entry.clientUri)
    expect(registered).not.toContain(clientUri)
  })

  it('the committed test-pki fixtures are not trusted by default: unapproved_software_statement', async () => {
    const leaf = testPki.leaves['ec-p256-client']
    const client = createUdapClient(sandbox, {
      privateKey: leaf.privateKeyPkcs8Pem,
      certificateChain: leaf.chainDer,
    })
    const { error } = await registrationFailure(
      client.registerClient(clientCredentialsRegistration, {
        clientUri: leaf.sanUris[0] ?? '',
        ...trust,
      }),
    )
    expect(error.error).toBe('unapproved_software_statement')
  })

  it('a statement issued in the future (client clock 10 minutes fast): invalid_software_statement', async () => {
    const client = createUdapClient(sandbox, identityOf(trusted), {
      now: () => new Date(Date.now() + 10 * minute),
    })
    const { error, registrationRequests } = await registrationFailure(
      client.registerClient(clientCredentialsRegistration, {
        clientUri: 'https://client.example.test/trusted',
        ...trust,
      }),
    )
    expect(registrationRequests).toBe(1)
    expect(error.status).toBe(400)
    expect(error.error).toBe('invalid_software_statement')
  })

  it('no scope the server supports: invalid_client_metadata', async () => {
    const client = createUdapClient(sandbox, identityOf(trusted))
    const { error } = await registrationFailure(
      client.registerClient(
        { ...clientCredentialsRegistration, scope: 'patient/*.rs' },
        { clientUri: 'https://client.example.test/trusted', ...trust },
      ),
    )
    expect(error.status).toBe(400)
    expect(error.error).toBe('invalid_client_metadata')
  })
})

describe('token requests refused by the server', () => {
  it('a scope outside the registration: TokenError invalid_scope', async () => {
    const client = createUdapClient(sandbox, identityOf(trusted))
    await client.registerClient(clientCredentialsRegistration, {
      clientUri: 'https://client.example.test/trusted',
      ...trust,
    })
    const error = await failureOf(
      client.requestBackendToken({ scopes: ['patient/*.rs'], b2b: b2bContext }),
      TokenError,
    )
    caught.push(error)
    expect(error.status).toBe(400)
    expect(error.error).toBe('invalid_scope')
  })

  it('an unregistered client where the server allows none: TokenError invalid_client', async () => {
    const client = createUdapClient(sandbox, identityOf(trusted))
    const error = await failureOf(
      client.requestBackendToken({
        clientUri: 'https://client.example.test/trusted',
        b2b: b2bContext,
        ...trust,
      }),
      TokenError,
    )
    caught.push(error)
    expect(error.error).toBe('invalid_client')
  })

  it('a client certificate revoked after registration: TokenError invalid_grant', async () => {
    const client = createUdapClient(sandbox, identityOf(trusted))
    await client.registerClient(clientCredentialsRegistration, {
      clientUri: 'https://client.example.test/revoked',
      ...trust,
    })
    await client.requestBackendToken({ b2b: b2bContext })
    sandbox.revokeCertificate(trusted.serialNumber)
    const error = await failureOf(client.requestBackendToken({ b2b: b2bContext }), TokenError)
    caught.push(error)
    expect(error.status).toBe(400)
    expect(error.error).toBe('invalid_grant')
  })
})

describe('the refused assertions stay secret', () => {
  it('no error above contains a software statement or an authentication token', () => {
    const scanner = new SecretScanner()
    for (const request of requestsTo(sandbox, '/register')) {
      scanner.addSecret('software statement', softwareStatementOf(request))
    }
    for (const request of requestsTo(sandbox, '/token')) {
      scanner.addSecret('authentication token', clientAssertionOf(request))
    }
    for (const [index, error] of caught.entries()) scanner.addError(`error ${index + 1}`, error)
    expect(caught).toHaveLength(7)
    expect(scanner.secretCount).toBeGreaterThanOrEqual(10)
    expect(scanner.findings()).toEqual([])
  })
})
