import { CertificateChainError, ConfigurationError, DiscoveryError } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createCertificateAuthority, type IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { beforeAll, describe, expect, it } from 'vitest'
import { type VerifySignedMetadataOptions, verifySignedMetadata } from '../src/index.js'
import {
  authorizationEndpoint,
  baseUrl,
  createTestPki,
  currentCrl,
  registrationEndpoint,
  type TestPki,
  tokenEndpoint,
} from './support/pki.js'
import { signedClaims, signedMetadata } from './support/udap-server.js'

const crypto = createNodeCryptoBackend()
const day = 86_400_000
let pki: TestPki

beforeAll(async () => {
  pki = await createTestPki()
})

function verify(jwt: string, overrides: Partial<VerifySignedMetadataOptions> = {}) {
  return verifySignedMetadata({
    jwt,
    baseUrl,
    unsignedMetadata: {},
    crypto,
    trustedAnchors: pki.anchors,
    crls: pki.crls,
    now: pki.now,
    allowInsecureLocalhost: false,
    ...overrides,
  })
}

async function refusal(promise: Promise<unknown>, pattern: RegExp): Promise<DiscoveryError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(DiscoveryError)
  const discoveryError = error as DiscoveryError
  expect(discoveryError.message).toMatch(pattern)
  expect(discoveryError.endpoint).toBe(`${baseUrl}/.well-known/udap`)
  return discoveryError
}

async function chainRefusal(
  jwt: string,
  reason: string,
  overrides: Partial<VerifySignedMetadataOptions> = {},
) {
  const error = await refusal(
    verify(jwt, overrides),
    new RegExp(`certificate chain is not trusted \\(${reason}\\)`),
  )
  expect(error.cause).toBeInstanceOf(CertificateChainError)
  expect((error.cause as CertificateChainError).reason).toBe(reason)
}

/** A server certificate with the server's key but other names or dates. */
function serverCertificate(
  options: { sanUris?: string[]; notBefore?: Date; notAfter?: Date } = {},
) {
  return pki.intermediate.issue({
    commonName: 'FHIR server variant',
    sanUris: options.sanUris ?? [baseUrl],
    keyPair: pki.server.keyPair,
    ...(options.notBefore === undefined ? {} : { notBefore: options.notBefore }),
    ...(options.notAfter === undefined ? {} : { notAfter: options.notAfter }),
  })
}

function signedWith(certificate: IssuedCertificate, claims = signedClaims(pki.now)): string {
  return signedMetadata(pki, { chainDer: certificate.chainDer, claims })
}

describe('verifySignedMetadata', () => {
  it('returns the claims and the server certificate when every check passes', async () => {
    const claims = signedClaims(pki.now, { authorization_endpoint: authorizationEndpoint })
    const verified = await verify(signedMetadata(pki, { claims }))
    expect(verified.claims).toEqual(claims)
    expect(Object.isFrozen(verified.claims)).toBe(true)
    expect(verified.serverCertificate.subjectAltNameUris).toEqual([baseUrl])
    expect(verified.serverCertificate.der).toEqual(pki.server.certificateDer)
  })

  describe('algorithm', () => {
    for (const algorithm of ['none', 'HS256', 'RS384'] as const) {
      it(`refuses alg ${algorithm}`, async () => {
        const jwt = signedMetadata(pki, {
          algorithm,
          key: algorithm === 'HS256' ? 'secret' : pki.server.keyPair.privateKey,
        })
        await refusal(verify(jwt), new RegExp(`header alg must be "RS256", not "${algorithm}"`))
      })
    }

    it('refuses ES256 even with a valid EC certificate chain', async () => {
      const ecServer = await pki.intermediate.issue({
        commonName: 'EC server',
        sanUris: [baseUrl],
        keyType: 'p256',
      })
      const jwt = signedMetadata(pki, {
        algorithm: 'ES256',
        key: ecServer.keyPair.privateKey,
        chainDer: ecServer.chainDer,
      })
      await refusal(verify(jwt), /header alg must be "RS256", not "ES256"/)
    })

    it('refuses a header with crit', async () => {
      await refusal(verify(signedMetadata(pki, { header: { crit: ['exp'] } })), /header crit/)
    })
  })

  describe('JWS structure and x5c', () => {
    it('refuses a value that is not a compact JWS', async () => {
      await refusal(verify('not-a-jws'), /not a compact JWS/)
      await refusal(verify(42 as unknown as string), /not a string/)
    })

    it('refuses a missing or empty x5c', async () => {
      await refusal(
        verify(signedMetadata(pki, { header: { x5c: undefined } })),
        /x5c must be a non-empty array/,
      )
      await refusal(verify(signedMetadata(pki, { chainDer: [] })), /x5c must be a non-empty array/)
    })

    it('refuses x5c entries that are not standard base64 DER', async () => {
      await refusal(
        verify(signedMetadata(pki, { header: { x5c: ['not base64!'] } })),
        /x5c\[0\] is not standard-base64 DER/,
      )
      const base64Url = Buffer.from(pki.server.certificateDer).toString('base64url')
      await refusal(
        verify(signedMetadata(pki, { header: { x5c: [base64Url] } })),
        /x5c\[0\] is not standard-base64 DER/,
      )
      await refusal(
        verify(signedMetadata(pki, { header: { x5c: ['AAAA'] } })),
        /x5c\[0\] is not an X.509 certificate/,
      )
    })

    it('refuses a signature made by a key other than the one of x5c[0]', async () => {
      const jwt = signedMetadata(pki, { key: pki.clientRsa.keyPair.privateKey })
      await refusal(verify(jwt), /signature does not verify with the key of x5c\[0\]/)
    })

    it('refuses a tampered claims set', async () => {
      const [header, , signature] = signedMetadata(pki).split('.')
      const forged = Buffer.from(
        JSON.stringify(signedClaims(pki.now, { token_endpoint: 'https://evil.example/token' })),
      ).toString('base64url')
      await refusal(verify(`${header}.${forged}.${signature}`), /signature does not verify/)
    })
  })

  describe('certificate chain', () => {
    it('refuses an x5c chain out of order', async () => {
      const jwt = signedMetadata(pki, {
        chainDer: [
          pki.server.certificateDer,
          pki.root.certificateDer,
          pki.intermediate.certificateDer,
        ],
      })
      await chainRefusal(jwt, 'order')
    })

    it('refuses a chain to a root that is not a trust anchor', async () => {
      const now = pki.now
      const otherRoot = await createCertificateAuthority({
        name: 'Other Root',
        keyType: 'p256',
        notBefore: new Date(now.getTime() - day),
        notAfter: new Date(now.getTime() + day),
      })
      const otherIntermediate = await createCertificateAuthority({
        name: 'Other Intermediate',
        keyType: 'p256',
        issuer: otherRoot,
        notBefore: new Date(now.getTime() - day),
        notAfter: new Date(now.getTime() + day),
      })
      const leaf = await otherIntermediate.issue({
        commonName: 'Impostor',
        sanUris: [baseUrl],
        keyPair: pki.server.keyPair,
      })
      const crls = [...pki.crls, currentCrl(otherRoot, now), currentCrl(otherIntermediate, now)]
      await chainRefusal(
        signedWith({ ...leaf, chainDer: [...leaf.chainDer, otherRoot.certificateDer] }),
        'untrusted',
        { crls },
      )
    })

    it('refuses a revoked leaf', async () => {
      const crls = [
        currentCrl(pki.root, pki.now),
        currentCrl(pki.intermediate, pki.now, [pki.server.serialNumber]),
      ]
      await chainRefusal(signedMetadata(pki), 'revoked', { crls })
    })

    it('refuses a leaf under a revoked intermediate', async () => {
      const crls = [
        currentCrl(pki.root, pki.now, [pki.intermediate.serialNumber]),
        currentCrl(pki.intermediate, pki.now),
      ]
      await chainRefusal(signedMetadata(pki), 'revoked', { crls })
    })

    it('refuses an expired leaf', async () => {
      const expired = await serverCertificate({
        notBefore: new Date(pki.now.getTime() - 10 * day),
        notAfter: new Date(pki.now.getTime() - day),
      })
      await chainRefusal(signedWith(expired), 'expired')
    })

    it('refuses a leaf that is not yet valid', async () => {
      const future = await serverCertificate({
        notBefore: new Date(pki.now.getTime() + day),
        notAfter: new Date(pki.now.getTime() + 10 * day),
      })
      await chainRefusal(signedWith(future), 'not-yet-valid')
    })

    it('refuses when a CA in the path has no CRL (revocation is required)', async () => {
      await chainRefusal(signedMetadata(pki), 'crl-missing', {
        crls: [currentCrl(pki.root, pki.now)],
      })
      await chainRefusal(signedMetadata(pki), 'crl-missing', { crls: [] })
    })

    it('refuses a stale CRL', async () => {
      const stale = pki.intermediate.crl({
        thisUpdate: new Date(pki.now.getTime() - 10 * day),
        nextUpdate: new Date(pki.now.getTime() - day),
      }).crlPem
      await chainRefusal(signedMetadata(pki), 'crl-stale', {
        crls: [currentCrl(pki.root, pki.now), stale],
      })
    })

    it('refuses a CRL whose signature does not verify', async () => {
      const forged = pki.intermediate.crl({
        thisUpdate: new Date(pki.now.getTime() - day),
        nextUpdate: new Date(pki.now.getTime() + day),
        corruptSignature: true,
      }).crlPem
      await chainRefusal(signedMetadata(pki), 'crl-bad-signature', {
        crls: [currentCrl(pki.root, pki.now), forged],
      })
    })

    it('judges the chain at the given time', async () => {
      await chainRefusal(signedMetadata(pki), 'expired', {
        now: new Date(pki.now.getTime() + 400 * day),
      })
    })

    it('reports a malformed CRL as a discovery failure with the CryptoError as cause', async () => {
      const error = await refusal(
        verify(signedMetadata(pki), {
          crls: ['-----BEGIN X509 CRL-----\nAAAA\n-----END X509 CRL-----'],
        }),
        /cannot be checked \(invalid-crl\)/,
      )
      expect(error.cause).toMatchObject({ name: 'CryptoError', reason: 'invalid-crl' })
    })
  })

  describe('identity claims', () => {
    it('refuses an iss that does not equal the base URL, even when it is a SAN', async () => {
      const other = 'https://other.example.test/r4'
      const certificate = await serverCertificate({ sanUris: [baseUrl, other] })
      const jwt = signedWith(certificate, signedClaims(pki.now, { iss: other, sub: other }))
      await refusal(
        verify(jwt),
        /iss "https:\/\/other\.example\.test\/r4" does not equal the base URL/,
      )
    })

    it('refuses an iss that is not a URI SAN of the signing certificate', async () => {
      const certificate = await serverCertificate({ sanUris: ['https://other.example.test/r4'] })
      await refusal(
        verify(signedWith(certificate)),
        /is not a URI subject alternative name of the signing certificate/,
      )
    })

    it('compares iss and SAN exactly: case and trailing slash matter', async () => {
      const upperCase = await serverCertificate({ sanUris: ['https://FHIR.example.test/r4'] })
      await refusal(verify(signedWith(upperCase)), /not a URI subject alternative name/)
      const trailingSlash = await serverCertificate({ sanUris: [`${baseUrl}/`] })
      await refusal(verify(signedWith(trailingSlash)), /not a URI subject alternative name/)
      const slashed = signedWith(
        trailingSlash,
        signedClaims(pki.now, { iss: `${baseUrl}/`, sub: `${baseUrl}/` }),
      )
      await refusal(verify(slashed), /does not equal the base URL/)
      await expect(verify(slashed, { baseUrl: `${baseUrl}/` })).resolves.toMatchObject({
        claims: { iss: `${baseUrl}/` },
      })
    })

    it('refuses a missing iss', async () => {
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { iss: undefined }))),
        /iss is missing/,
      )
    })

    it('refuses a sub that differs from iss', async () => {
      await refusal(
        verify(
          signedWith(pki.server, signedClaims(pki.now, { sub: 'https://other.example.test/r4' })),
        ),
        /sub does not equal iss/,
      )
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { sub: undefined }))),
        /sub does not equal iss/,
      )
    })
  })

  describe('time claims', () => {
    const seconds = () => Math.floor(pki.now.getTime() / 1000)

    it('refuses an exp in the past', async () => {
      await refusal(
        verify(
          signedWith(
            pki.server,
            signedClaims(pki.now, { iat: seconds() - 7200, exp: seconds() - 1 }),
          ),
        ),
        /exp is in the past/,
      )
    })

    it('refuses a missing or non-numeric exp', async () => {
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { exp: undefined }))),
        /exp is missing or not a number/,
      )
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { exp: String(seconds() + 60) }))),
        /exp is missing or not a number/,
      )
    })

    it('refuses an exp more than one year after iat', async () => {
      const iat = seconds() - 60
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { iat, exp: iat + 365 * 86_400 + 1 }))),
        /more than 365 days after iat/,
      )
      await expect(
        verify(signedWith(pki.server, signedClaims(pki.now, { iat, exp: iat + 365 * 86_400 }))),
      ).resolves.toBeDefined()
    })

    it('refuses an iat more than 60 seconds in the future, and accepts small skew', async () => {
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { iat: seconds() + 61 }))),
        /iat is in the future/,
      )
      await expect(
        verify(signedWith(pki.server, signedClaims(pki.now, { iat: seconds() + 30 }))),
      ).resolves.toBeDefined()
    })

    it('refuses a missing iat', async () => {
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { iat: undefined }))),
        /iat is missing or not a number/,
      )
    })

    it('refuses an nbf in the future', async () => {
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { nbf: seconds() + 600 }))),
        /nbf is in the future/,
      )
    })

    it('refuses a missing or empty jti', async () => {
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { jti: undefined }))),
        /jti is missing/,
      )
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { jti: '' }))),
        /jti is missing/,
      )
    })
  })

  describe('endpoint claims', () => {
    it('requires the signed token and registration endpoints', async () => {
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { token_endpoint: undefined }))),
        /signed claims lack token_endpoint/,
      )
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { registration_endpoint: undefined }))),
        /signed claims lack registration_endpoint/,
      )
    })

    it('requires a signed authorization endpoint when the unsigned document has one', async () => {
      const unsignedMetadata = { authorization_endpoint: authorizationEndpoint }
      await refusal(
        verify(signedMetadata(pki), { unsignedMetadata }),
        /signed claims lack authorization_endpoint/,
      )
      const claims = signedClaims(pki.now, { authorization_endpoint: authorizationEndpoint })
      await expect(
        verify(signedWith(pki.server, claims), { unsignedMetadata }),
      ).resolves.toBeDefined()
    })

    it('refuses HTTP endpoints', async () => {
      await refusal(
        verify(
          signedWith(
            pki.server,
            signedClaims(pki.now, { token_endpoint: 'http://auth.example.test/token' }),
          ),
        ),
        /signed token_endpoint is not an HTTPS URL/,
      )
      await refusal(
        verify(
          signedWith(
            pki.server,
            signedClaims(pki.now, { registration_endpoint: 'http://auth.example.test/register' }),
          ),
        ),
        /signed registration_endpoint is not an HTTPS URL/,
      )
      await refusal(
        verify(
          signedWith(
            pki.server,
            signedClaims(pki.now, { authorization_endpoint: 'http://auth.example.test/authorize' }),
          ),
        ),
        /signed authorization_endpoint is not an HTTPS URL/,
      )
      await refusal(
        verify(signedWith(pki.server, signedClaims(pki.now, { token_endpoint: 'token' }))),
        /signed token_endpoint is not an absolute URL/,
      )
    })

    it('accepts loopback HTTP endpoints only with allowInsecureLocalhost', async () => {
      const claims = signedClaims(pki.now, { token_endpoint: 'http://127.0.0.1:8080/token' })
      await refusal(verify(signedWith(pki.server, claims)), /not an HTTPS URL/)
      await expect(
        verify(signedWith(pki.server, claims), { allowInsecureLocalhost: true }),
      ).resolves.toBeDefined()
      const remote = signedClaims(pki.now, { token_endpoint: 'http://auth.example.test/token' })
      await refusal(
        verify(signedWith(pki.server, remote), { allowInsecureLocalhost: true }),
        /not an HTTPS URL \(or HTTP on a loopback host\)/,
      )
    })

    it('leaves endpoint values exactly as signed', async () => {
      const verified = await verify(signedMetadata(pki))
      expect(verified.claims.token_endpoint).toBe(tokenEndpoint)
      expect(verified.claims.registration_endpoint).toBe(registrationEndpoint)
    })
  })

  describe('options', () => {
    it('refuses trust inputs of the wrong shape with a ConfigurationError', async () => {
      await expect(verify(signedMetadata(pki), { trustedAnchors: [] })).rejects.toMatchObject({
        name: 'ConfigurationError',
        invalidAttribute: 'trustedAnchors',
      })
      await expect(
        verify(signedMetadata(pki), { crls: undefined as unknown as string[] }),
      ).rejects.toMatchObject({ invalidAttribute: 'crls' })
      await expect(
        verify(signedMetadata(pki), { now: new Date(Number.NaN) }),
      ).rejects.toBeInstanceOf(ConfigurationError)
      await expect(verify(signedMetadata(pki), { crypto: {} as never })).rejects.toMatchObject({
        invalidAttribute: 'crypto',
      })
    })
  })
})
