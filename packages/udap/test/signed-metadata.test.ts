import {
  CertificateChainError,
  ConfigurationError,
  DiscoveryError,
  HttpError,
} from '@fhir-auth/core'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import type { TestLeafName } from '@fhir-auth/test-pki'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  parseUdapMetadata,
  UdapMetadata,
  type VerifySignedMetadataOptions,
  verifySignedMetadata,
} from '../src/index.js'
import { base64Url } from './support/jws.js'
import {
  authorizationEndpoint,
  baseUrl,
  clientUri,
  createTestPki,
  crlOf,
  registrationEndpoint,
  type TestIdentity,
  type TestPki,
  tokenEndpoint,
} from './support/pki.js'
import { metadataDocument, signedClaims, signedMetadata } from './support/udap-server.js'

const crypto = webCryptoBackend
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

async function refusal(
  promise: Promise<unknown>,
  pattern: RegExp,
  verifiedBaseUrl = baseUrl,
): Promise<DiscoveryError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(DiscoveryError)
  const discoveryError = error as DiscoveryError
  expect(discoveryError.message).toMatch(pattern)
  expect(discoveryError.endpoint).toBe(`${verifiedBaseUrl.replace(/\/+$/, '')}/.well-known/udap`)
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
    overrides.baseUrl,
  )
  expect(error.cause).toBeInstanceOf(CertificateChainError)
  expect((error.cause as CertificateChainError).reason).toBe(reason)
}

/** Metadata signed by `identity` (its chain in x5c, its key). */
function signedWith(identity: TestIdentity, claims = signedClaims(pki.now)): Promise<string> {
  return signedMetadata(pki, { chainDer: identity.chainDer, key: identity.privateKeyPem, claims })
}

/**
 * Refuses metadata signed by a hostile leaf of the test PKI for `reason`, with the CRLs of that
 * leaf's case. The leaf's only SAN is clientUri, so that is the base URL it serves.
 */
async function leafChainRefusal(name: TestLeafName, reason: string): Promise<void> {
  const leaf = pki.leaf(name)
  const jwt = await signedWith(leaf, signedClaims(pki.now, { iss: clientUri, sub: clientUri }))
  await chainRefusal(jwt, reason, { baseUrl: clientUri, crls: leaf.crls })
}

describe('verifySignedMetadata', () => {
  it('returns the claims and the server certificate when every check passes', async () => {
    const claims = signedClaims(pki.now, { authorization_endpoint: authorizationEndpoint })
    const verified = await verify(await signedMetadata(pki, { claims }))
    expect(verified.claims).toEqual(claims)
    expect(Object.isFrozen(verified.claims)).toBe(true)
    expect(verified.serverCertificate.subjectAltNameUris).toEqual([clientUri, baseUrl])
    expect(verified.serverCertificate.der).toEqual(pki.server.certificateDer)
  })

  it('returns the earliest notAfter of the path it validated (leaf, intermediate, anchor)', async () => {
    const verified = await verify(await signedMetadata(pki))
    const path = [...pki.server.chainDer, pki.rsaRoot.certificateDer]
    const notAfters = await Promise.all(
      path.map(async (der) => (await crypto.parseCertificate(der)).notAfter.getTime()),
    )
    expect(verified.chainNotAfter.getTime()).toBe(Math.min(...notAfters))
  })

  describe('algorithm', () => {
    for (const algorithm of ['none', 'HS256', 'RS384'] as const) {
      it(`refuses alg ${algorithm}`, async () => {
        const jwt = await signedMetadata(pki, {
          algorithm,
          key: algorithm === 'HS256' ? 'secret' : pki.server.privateKeyPem,
        })
        await refusal(verify(jwt), new RegExp(`header alg must be "RS256", not "${algorithm}"`))
      })
    }

    it('refuses ES256 even with a valid EC certificate chain', async () => {
      const ecServer = pki.clientEc
      const jwt = await signedMetadata(pki, {
        algorithm: 'ES256',
        key: ecServer.privateKeyPem,
        chainDer: ecServer.chainDer,
        claims: signedClaims(pki.now, { iss: clientUri, sub: clientUri }),
      })
      await refusal(
        verify(jwt, { baseUrl: clientUri }),
        /header alg must be "RS256", not "ES256"/,
        clientUri,
      )
    })

    it('refuses a header with crit', async () => {
      await refusal(verify(await signedMetadata(pki, { header: { crit: ['exp'] } })), /header crit/)
    })
  })

  describe('JWS structure and x5c', () => {
    it('refuses a value that is not a compact JWS', async () => {
      await refusal(verify('not-a-jws'), /not a compact JWS/)
      await refusal(verify(42 as unknown as string), /not a string/)
    })

    it('refuses a missing or empty x5c', async () => {
      await refusal(
        verify(await signedMetadata(pki, { header: { x5c: undefined } })),
        /x5c must be a non-empty array/,
      )
      await refusal(
        verify(await signedMetadata(pki, { chainDer: [] })),
        /x5c must be a non-empty array/,
      )
    })

    it('refuses x5c entries that are not standard base64 DER', async () => {
      await refusal(
        verify(await signedMetadata(pki, { header: { x5c: ['not base64!'] } })),
        /x5c\[0\] is not standard-base64 DER/,
      )
      const urlSafe = base64Url(pki.server.certificateDer)
      await refusal(
        verify(await signedMetadata(pki, { header: { x5c: [urlSafe] } })),
        /x5c\[0\] is not standard-base64 DER/,
      )
      await refusal(
        verify(await signedMetadata(pki, { header: { x5c: ['AAAA'] } })),
        /x5c\[0\] is not an X.509 certificate/,
      )
    })

    it('refuses a signature made by a key other than the one of x5c[0]', async () => {
      const jwt = await signedMetadata(pki, { key: pki.clientRsa.privateKeyPem })
      await refusal(verify(jwt), /signature does not verify with the key of x5c\[0\]/)
    })

    it('refuses a tampered claims set', async () => {
      const [header, , signature] = (await signedMetadata(pki)).split('.')
      const forged = base64Url(
        JSON.stringify(signedClaims(pki.now, { token_endpoint: 'https://evil.example/token' })),
      )
      await refusal(verify(`${header}.${forged}.${signature}`), /signature does not verify/)
    })
  })

  describe('certificate chain', () => {
    it('refuses an x5c chain out of order', async () => {
      const jwt = await signedMetadata(pki, {
        chainDer: [
          pki.server.certificateDer,
          pki.rsaRoot.certificateDer,
          pki.rsaIntermediate.certificateDer,
        ],
      })
      await chainRefusal(jwt, 'order')
    })

    it('refuses a chain to a root that is not a trust anchor', async () => {
      await leafChainRefusal('untrusted', 'untrusted')
    })

    it('refuses a revoked leaf', async () => {
      await leafChainRefusal('revoked', 'revoked')
    })

    it('refuses a leaf under a revoked intermediate', async () => {
      await leafChainRefusal('under-revoked-intermediate', 'revoked')
    })

    it('refuses an expired leaf', async () => {
      await leafChainRefusal('expired', 'expired')
    })

    it('refuses a leaf that is not yet valid', async () => {
      await leafChainRefusal('not-yet-valid', 'not-yet-valid')
    })

    it('refuses when a CA in the path has no CRL (revocation is required)', async () => {
      const offline = { revocation: { fetch: false } }
      await chainRefusal(await signedMetadata(pki), 'crl-missing', {
        crls: [crlOf('rsa-root')],
        ...offline,
      })
      await chainRefusal(await signedMetadata(pki), 'crl-missing', { crls: [], ...offline })
      // Fetched by default (issue 30): these certificates name no distribution point.
      await chainRefusal(await signedMetadata(pki), 'revocation-unavailable', { crls: [] })
    })

    it('refuses a stale CRL', async () => {
      await leafChainRefusal('stale-crl', 'crl-stale')
      await chainRefusal(await signedMetadata(pki), 'crl-stale', {
        crls: [crlOf('rsa-root'), crlOf('rsa-intermediate-stale')],
      })
    })

    it('refuses a CRL whose signature does not verify', async () => {
      await leafChainRefusal('crl-bad-signature', 'crl-bad-signature')
      await chainRefusal(await signedMetadata(pki), 'crl-bad-signature', {
        crls: [crlOf('rsa-root'), crlOf('rsa-intermediate-bad-signature')],
      })
    })

    it('judges the chain at the given time', async () => {
      // The test PKI's certificates expire on 2045-01-01.
      await chainRefusal(await signedMetadata(pki), 'expired', {
        now: new Date('2046-01-01T00:00:00Z'),
      })
    })

    it('reports a malformed CRL as a discovery failure with the CryptoError as cause', async () => {
      const error = await refusal(
        verify(await signedMetadata(pki), {
          crls: ['-----BEGIN X509 CRL-----\nAAAA\n-----END X509 CRL-----'],
        }),
        /cannot be checked \(invalid-crl\)/,
      )
      expect(error.cause).toMatchObject({ name: 'CryptoError', reason: 'invalid-crl' })
    })
  })

  describe('identity claims', () => {
    it('refuses an iss that does not equal the base URL, even when it is a SAN', async () => {
      // The server certificate's SANs are clientUri and baseUrl.
      const jwt = await signedWith(
        pki.server,
        signedClaims(pki.now, { iss: clientUri, sub: clientUri }),
      )
      await refusal(
        verify(jwt),
        /iss "https:\/\/client\.example\.test\/app" does not equal the base URL/,
      )
    })

    it('refuses an iss that is not a URI SAN of the signing certificate', async () => {
      // A certificate whose only SAN is clientUri signs for baseUrl.
      await refusal(
        verify(await signedWith(pki.clientRsa)),
        /is not a URI subject alternative name of the signing certificate/,
      )
    })

    it('compares iss and SAN exactly: case and trailing slash matter', async () => {
      for (const spelling of [`${baseUrl}/`, baseUrl.replace('/app', '/APP')]) {
        const jwt = await signedWith(
          pki.server,
          signedClaims(pki.now, { iss: spelling, sub: spelling }),
        )
        await refusal(
          verify(jwt, { baseUrl: spelling }),
          /not a URI subject alternative name/,
          spelling,
        )
      }
      const slashed = await signedWith(
        pki.server,
        signedClaims(pki.now, { iss: `${baseUrl}/`, sub: `${baseUrl}/` }),
      )
      await refusal(verify(slashed), /not a URI subject alternative name/)
    })

    it('refuses a missing iss', async () => {
      await refusal(
        verify(await signedWith(pki.server, signedClaims(pki.now, { iss: undefined }))),
        /iss is missing/,
      )
    })

    it('refuses a sub that differs from iss', async () => {
      await refusal(
        verify(
          await signedWith(
            pki.server,
            signedClaims(pki.now, { sub: 'https://other.example.test/r4' }),
          ),
        ),
        /sub does not equal iss/,
      )
      await refusal(
        verify(await signedWith(pki.server, signedClaims(pki.now, { sub: undefined }))),
        /sub does not equal iss/,
      )
    })
  })

  describe('time claims', () => {
    const seconds = () => Math.floor(pki.now.getTime() / 1000)

    it('refuses an exp in the past', async () => {
      await refusal(
        verify(
          await signedWith(
            pki.server,
            signedClaims(pki.now, { iat: seconds() - 7200, exp: seconds() - 1 }),
          ),
        ),
        /exp is in the past/,
      )
    })

    it('refuses a missing or non-numeric exp', async () => {
      await refusal(
        verify(await signedWith(pki.server, signedClaims(pki.now, { exp: undefined }))),
        /exp is missing or not a number/,
      )
      await refusal(
        verify(
          await signedWith(pki.server, signedClaims(pki.now, { exp: String(seconds() + 60) })),
        ),
        /exp is missing or not a number/,
      )
    })

    it('refuses an exp more than one year (366 days, leap day included) after iat', async () => {
      const iat = seconds() - 60
      await refusal(
        verify(
          await signedWith(pki.server, signedClaims(pki.now, { iat, exp: iat + 366 * 86_400 + 1 })),
        ),
        /more than 366 days after iat/,
      )
      await expect(
        verify(
          await signedWith(pki.server, signedClaims(pki.now, { iat, exp: iat + 366 * 86_400 })),
        ),
      ).resolves.toBeDefined()
    })

    it('refuses an iat more than 60 seconds in the future, and accepts small skew', async () => {
      await refusal(
        verify(await signedWith(pki.server, signedClaims(pki.now, { iat: seconds() + 61 }))),
        /iat is in the future/,
      )
      await expect(
        verify(await signedWith(pki.server, signedClaims(pki.now, { iat: seconds() + 30 }))),
      ).resolves.toBeDefined()
    })

    it('refuses a missing iat', async () => {
      await refusal(
        verify(await signedWith(pki.server, signedClaims(pki.now, { iat: undefined }))),
        /iat is missing or not a number/,
      )
    })

    it('refuses an nbf in the future', async () => {
      await refusal(
        verify(await signedWith(pki.server, signedClaims(pki.now, { nbf: seconds() + 600 }))),
        /nbf is in the future/,
      )
    })

    it('refuses a missing or empty jti', async () => {
      await refusal(
        verify(await signedWith(pki.server, signedClaims(pki.now, { jti: undefined }))),
        /jti is missing/,
      )
      await refusal(
        verify(await signedWith(pki.server, signedClaims(pki.now, { jti: '' }))),
        /jti is missing/,
      )
    })
  })

  describe('endpoint claims', () => {
    it('requires the signed token and registration endpoints', async () => {
      await refusal(
        verify(await signedWith(pki.server, signedClaims(pki.now, { token_endpoint: undefined }))),
        /signed claims lack token_endpoint/,
      )
      await refusal(
        verify(
          await signedWith(pki.server, signedClaims(pki.now, { registration_endpoint: undefined })),
        ),
        /signed claims lack registration_endpoint/,
      )
    })

    it('treats a blank authorization endpoint, signed or unsigned, as absent', async () => {
      const claims = signedClaims(pki.now, { authorization_endpoint: '' })
      const verified = await verify(await signedWith(pki.server, claims), {
        unsignedMetadata: { authorization_endpoint: ' ' },
      })
      expect(verified.claims.authorization_endpoint).toBe('')
      const metadata = new UdapMetadata({
        raw: {},
        document: parseUdapMetadata(metadataDocument('a.b.c', { authorization_endpoint: '' }), {
          endpoint: 'https://x.example/.well-known/udap',
          allowInsecureLocalhost: false,
        }).document,
        signedClaims: verified.claims,
        serverCertificate: verified.serverCertificate,
      })
      expect(metadata.authorizationEndpoint).toBeUndefined()
    })

    it('requires a signed authorization endpoint when the unsigned document has one', async () => {
      const unsignedMetadata = { authorization_endpoint: authorizationEndpoint }
      await refusal(
        verify(await signedMetadata(pki), { unsignedMetadata }),
        /signed claims lack authorization_endpoint/,
      )
      const claims = signedClaims(pki.now, { authorization_endpoint: authorizationEndpoint })
      await expect(
        verify(await signedWith(pki.server, claims), { unsignedMetadata }),
      ).resolves.toBeDefined()
    })

    it('refuses HTTP endpoints', async () => {
      await refusal(
        verify(
          await signedWith(
            pki.server,
            signedClaims(pki.now, { token_endpoint: 'http://auth.example.test/token' }),
          ),
        ),
        /signed token_endpoint is not an HTTPS URL/,
      )
      await refusal(
        verify(
          await signedWith(
            pki.server,
            signedClaims(pki.now, { registration_endpoint: 'http://auth.example.test/register' }),
          ),
        ),
        /signed registration_endpoint is not an HTTPS URL/,
      )
      await refusal(
        verify(
          await signedWith(
            pki.server,
            signedClaims(pki.now, { authorization_endpoint: 'http://auth.example.test/authorize' }),
          ),
        ),
        /signed authorization_endpoint is not an HTTPS URL/,
      )
      await refusal(
        verify(await signedWith(pki.server, signedClaims(pki.now, { token_endpoint: 'token' }))),
        /signed token_endpoint is not an absolute URL/,
      )
    })

    it('accepts loopback HTTP endpoints only with allowInsecureLocalhost', async () => {
      const claims = signedClaims(pki.now, { token_endpoint: 'http://127.0.0.1:8080/token' })
      await refusal(verify(await signedWith(pki.server, claims)), /not an HTTPS URL/)
      await expect(
        verify(await signedWith(pki.server, claims), { allowInsecureLocalhost: true }),
      ).resolves.toBeDefined()
      const remote = signedClaims(pki.now, { token_endpoint: 'http://auth.example.test/token' })
      await refusal(
        verify(await signedWith(pki.server, remote), { allowInsecureLocalhost: true }),
        /not an HTTPS URL \(or HTTP on a loopback host\)/,
      )
    })

    it('leaves endpoint values exactly as signed', async () => {
      const verified = await verify(await signedMetadata(pki))
      expect(verified.claims.token_endpoint).toBe(tokenEndpoint)
      expect(verified.claims.registration_endpoint).toBe(registrationEndpoint)
    })
  })

  describe('options', () => {
    it('refuses trust inputs of the wrong shape with a ConfigurationError', async () => {
      await expect(verify(await signedMetadata(pki), { trustedAnchors: [] })).rejects.toMatchObject(
        {
          name: 'ConfigurationError',
          invalidAttribute: 'trustedAnchors',
        },
      )
      await expect(
        verify(await signedMetadata(pki), { crls: 'crl' as unknown as string[] }),
      ).rejects.toMatchObject({ invalidAttribute: 'crls' })
      await expect(
        verify(await signedMetadata(pki), { revocation: { fetch: 1 } as never }),
      ).rejects.toMatchObject({ invalidAttribute: 'revocation' })
      await expect(
        verify(await signedMetadata(pki), { now: new Date(Number.NaN) }),
      ).rejects.toBeInstanceOf(ConfigurationError)
      await expect(
        verify(await signedMetadata(pki), { crypto: {} as never }),
      ).rejects.toMatchObject({
        invalidAttribute: 'crypto',
      })
    })
  })
})

describe('backend code that cannot be loaded (a browser chunk gone after a deployment)', () => {
  const notLoaded = () =>
    Promise.reject(
      new HttpError({
        reason: 'network',
        url: '',
        message: 'fhir-auth could not load its code (network error)',
      }),
    )
  it.each([
    ['parseCertificate', { parseCertificate: notLoaded }],
    ['verifyCertificateChain', { verifyCertificateChain: notLoaded }],
    ['verifySignature', { verifySignature: notLoaded }],
  ] as const)(
    '%s: a DiscoveryError with the HttpError as cause, no verdict on the metadata',
    async (_name, failing) => {
      const error = await refusal(
        verify(await signedMetadata(pki), { crypto: { ...crypto, ...failing } }),
        /failed validation: it cannot be checked: fhir-auth could not load its code \(network error\)$/,
      )
      expect(HttpError.isInstance(error.cause)).toBe(true)
      expect(error.cause).toMatchObject({ reason: 'network' })
    },
  )
})
