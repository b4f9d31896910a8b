import { ConfigurationError, type JwsSigner } from '@fhir-auth/core'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  buildB2bExtension,
  createAuthenticationToken,
  createSoftwareStatement,
  normalizeRegistrationMetadata,
  prepareUdapSigner,
  type RegistrationClaims,
} from '../src/index.js'
import { x5cOf } from './support/jws.js'
import {
  clientUri,
  createTestPki,
  registrationEndpoint,
  type TestPki,
  tokenEndpoint,
} from './support/pki.js'
import { verifyWithX5c } from './support/verify.js'

const crypto = webCryptoBackend
let pki: TestPki
let ecSigner: JwsSigner
let rsaSigner: JwsSigner
let claims: RegistrationClaims

beforeAll(async () => {
  pki = await createTestPki()
  const common = { crypto, clientUri, advertisedAlgorithms: ['RS256', 'ES256'], now: pki.now }
  ecSigner = (
    await prepareUdapSigner({
      ...common,
      privateKey: pki.clientEc.privateKeyPem,
      certificateChain: pki.clientEc.chainDer,
    })
  ).signer
  rsaSigner = (
    await prepareUdapSigner({
      ...common,
      privateKey: pki.clientRsa.privateKeyPem,
      certificateChain: pki.clientRsa.chainDer,
    })
  ).signer
  claims = normalizeRegistrationMetadata(
    {
      client_name: 'Example B2B client',
      contacts: ['mailto:ops@example.org'],
      grant_types: ['client_credentials'],
      scope: 'system/Patient.rs',
    },
    { operation: 'register' },
  )
})

describe('createSoftwareStatement', () => {
  for (const [name, signer] of [
    ['ES256', () => ecSigner],
    ['RS256', () => rsaSigner],
  ] as const) {
    it(`signs a statement with only alg and x5c in the header (${name})`, async () => {
      const statement = await createSoftwareStatement({
        claims,
        clientUri,
        registrationEndpoint,
        signer: signer(),
        now: () => pki.now,
      })
      const { header, claims: payload } = await verifyWithX5c(statement, pki.now)
      expect(Object.keys(header).sort()).toEqual(['alg', 'x5c'])
      expect(header.alg).toBe(name)
      expect(header.x5c).toEqual(x5cOf(signer().certificateChain ?? []))
      const iat = Math.floor(pki.now.getTime() / 1000)
      expect(payload).toMatchObject({
        ...claims,
        iss: clientUri,
        sub: clientUri,
        aud: registrationEndpoint,
        iat,
        exp: iat + 300,
      })
      expect(payload.jti).toMatch(/^[A-Za-z0-9_-]{43}$/)
    })
  }

  it('uses a fresh jti every time', async () => {
    const options = { claims, clientUri, registrationEndpoint, signer: ecSigner }
    const first = await verifyWithX5c(await createSoftwareStatement(options))
    const second = await verifyWithX5c(await createSoftwareStatement(options))
    expect(first.claims.jti).not.toBe(second.claims.jti)
  })

  it('writes the registered claims over any the claims object carries', async () => {
    const sneaky = {
      ...claims,
      iss: 'https://evil.example',
      aud: 'https://evil.example/register',
      exp: 9_999_999_999,
    } as RegistrationClaims
    const statement = await createSoftwareStatement({
      claims: sneaky,
      clientUri,
      registrationEndpoint,
      signer: ecSigner,
    })
    const { claims: payload } = await verifyWithX5c(statement)
    expect(payload.iss).toBe(clientUri)
    expect(payload.aud).toBe(registrationEndpoint)
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300)
  })

  it('refuses a signer without a certificate chain', async () => {
    const bare: JwsSigner = { alg: 'ES256', sign: ecSigner.sign }
    await expect(
      createSoftwareStatement({ claims, clientUri, registrationEndpoint, signer: bare }),
    ).rejects.toMatchObject({ invalidAttribute: 'signer' })
    await expect(
      createSoftwareStatement({ claims, clientUri, registrationEndpoint, signer: {} as JwsSigner }),
    ).rejects.toMatchObject({ invalidAttribute: 'signer' })
  })

  it('refuses a client URI or endpoint that is not absolute', async () => {
    await expect(
      createSoftwareStatement({ claims, clientUri: 'app', registrationEndpoint, signer: ecSigner }),
    ).rejects.toMatchObject({ invalidAttribute: 'clientUri' })
    await expect(
      createSoftwareStatement({
        claims,
        clientUri,
        registrationEndpoint: '/register',
        signer: ecSigner,
      }),
    ).rejects.toMatchObject({ invalidAttribute: 'registrationEndpoint' })
    await expect(
      createSoftwareStatement({
        claims: null as never,
        clientUri,
        registrationEndpoint,
        signer: ecSigner,
      }),
    ).rejects.toMatchObject({ invalidAttribute: 'claims' })
  })

  it('refuses a clock that gives no valid Date', async () => {
    await expect(
      createSoftwareStatement({
        claims,
        clientUri,
        registrationEndpoint,
        signer: ecSigner,
        now: () => new Date('x'),
      }),
    ).rejects.toBeInstanceOf(ConfigurationError)
  })
})

describe('createAuthenticationToken', () => {
  it('signs iss = sub = issuer, aud = token endpoint, a 300 s lifetime and a jti', async () => {
    const token = await createAuthenticationToken({
      issuer: 'client-123',
      tokenEndpoint,
      signer: rsaSigner,
      now: () => pki.now,
    })
    const { header, claims: payload } = await verifyWithX5c(token, pki.now)
    expect(Object.keys(header).sort()).toEqual(['alg', 'x5c'])
    expect(header.x5c).toEqual(x5cOf(pki.clientRsa.chainDer))
    const iat = Math.floor(pki.now.getTime() / 1000)
    expect(payload).toEqual({
      iss: 'client-123',
      sub: 'client-123',
      aud: tokenEndpoint,
      iat,
      exp: iat + 300,
      jti: expect.any(String),
    })
  })

  it('carries extensions when given', async () => {
    const b2b = buildB2bExtension({
      organizationId: 'https://example.org/org/1',
      purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
    })
    const token = await createAuthenticationToken({
      issuer: clientUri,
      tokenEndpoint,
      signer: ecSigner,
      extensions: { 'hl7-b2b': b2b },
    })
    const { claims: payload } = await verifyWithX5c(token)
    expect(payload.extensions).toEqual({ 'hl7-b2b': b2b })
    expect(payload.iss).toBe(clientUri)
  })

  it('leaves out an empty extensions object: the IG claim holds one or more extensions', async () => {
    const token = await createAuthenticationToken({
      issuer: 'client-123',
      tokenEndpoint,
      signer: ecSigner,
      extensions: {},
    })
    const { claims: payload } = await verifyWithX5c(token)
    expect(Object.hasOwn(payload, 'extensions')).toBe(false)
  })

  it('refuses a blank issuer, a relative endpoint and extensions that are not JSON', async () => {
    await expect(
      createAuthenticationToken({ issuer: ' ', tokenEndpoint, signer: ecSigner }),
    ).rejects.toMatchObject({ invalidAttribute: 'issuer' })
    await expect(
      createAuthenticationToken({ issuer: 'c', tokenEndpoint: 'token', signer: ecSigner }),
    ).rejects.toMatchObject({ invalidAttribute: 'tokenEndpoint' })
    await expect(
      createAuthenticationToken({
        issuer: 'c',
        tokenEndpoint,
        signer: ecSigner,
        extensions: [] as never,
      }),
    ).rejects.toMatchObject({ invalidAttribute: 'extensions' })
    await expect(
      createAuthenticationToken({
        issuer: 'c',
        tokenEndpoint,
        signer: ecSigner,
        extensions: { x: Number.POSITIVE_INFINITY },
      }),
    ).rejects.toMatchObject({ invalidAttribute: 'extensions' })
  })
})
