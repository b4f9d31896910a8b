/**
 * `verifySignedMetadata` at its edges: the time claims at the exact second (exp, iat with its
 * 60 s skew, exp after iat, nbf), JWS shapes the header check alone would let through, x5c
 * entries that decode to nothing, what a backend's own failures become, and what each refusal
 * says. Each case fails if its rule is dropped (see docs/testing.md, mutation testing);
 * signed-metadata.test.ts has the main cases.
 */
import { type CryptoBackend, CryptoError, DiscoveryError } from '@fhir-auth/core'
import { encodePem } from '@fhir-auth/core/backend'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { beforeAll, describe, expect, it } from 'vitest'
import { type VerifySignedMetadataOptions, verifySignedMetadata } from '../src/index.js'
import { base64Url, signTestJwsText, x5cOf } from './support/jws.js'
import { baseUrl, clientUri, createTestPki, type TestPki } from './support/pki.js'
import { signedClaims, signedMetadata } from './support/udap-server.js'

let pki: TestPki

beforeAll(async () => {
  pki = await createTestPki()
})

function verify(jwt: unknown, overrides: Partial<VerifySignedMetadataOptions> = {}) {
  return verifySignedMetadata({
    jwt: jwt as string,
    baseUrl,
    unsignedMetadata: {},
    crypto: webCryptoBackend,
    trustedAnchors: pki.anchors,
    crls: pki.crls,
    now: pki.now,
    allowInsecureLocalhost: false,
    ...overrides,
  })
}

/** The DiscoveryError of `promise`, whose message must contain `check`. */
async function refusal(promise: Promise<unknown>, check: string): Promise<DiscoveryError> {
  const error = await failureOf(promise, DiscoveryError)
  expect(error.message).toContain(`failed validation: ${check}`)
  return error
}

/** Metadata signed by the server with these claim overrides. */
function signed(overrides: Record<string, unknown>) {
  return signedMetadata(pki, { claims: signedClaims(pki.now, overrides) })
}

const seconds = () => pki.now.getTime() / 1000

describe('time claims at the exact second', () => {
  it('refuses an exp equal to now, and accepts one a second later', async () => {
    expect(Number.isInteger(seconds())).toBe(true)
    await refusal(verify(await signed({ exp: seconds() })), 'exp is in the past')
    await expect(verify(await signed({ exp: seconds() + 1 }))).resolves.toBeDefined()
  })

  it('accepts an iat exactly 60 seconds ahead (the allowed skew)', async () => {
    await expect(
      verify(await signed({ iat: seconds() + 60, exp: seconds() + 3600 })),
    ).resolves.toBeDefined()
    await refusal(verify(await signed({ iat: seconds() + 61 })), 'iat is in the future')
  })

  it('refuses an exp that is not after iat', async () => {
    for (const exp of [seconds() + 30, seconds() + 20]) {
      await refusal(verify(await signed({ iat: seconds() + 30, exp })), 'exp is not after iat')
    }
  })

  it('accepts an nbf that has passed or is within the skew, and refuses one beyond it', async () => {
    for (const nbf of [seconds() - 600, seconds(), seconds() + 60]) {
      await expect(verify(await signed({ nbf }))).resolves.toBeDefined()
    }
    await refusal(verify(await signed({ nbf: seconds() + 61 })), 'nbf is in the future')
  })

  it('refuses an nbf that is not a number', async () => {
    for (const nbf of [String(seconds() - 600), null, true]) {
      await refusal(verify(await signed({ nbf })), 'nbf is not a number')
    }
  })

  it('refuses numbers JSON turns into Infinity', async () => {
    const claims = JSON.stringify(signedClaims(pki.now, { exp: 0 })).replace(
      '"exp":0',
      '"exp":1e400',
    )
    const jwt = await signTestJwsText(
      { x5c: x5cOf(pki.server.chainDer) },
      claims,
      pki.server.privateKeyPem,
    )
    await refusal(verify(jwt), 'exp is missing or not a number')
  })
})

describe('JWS shapes and x5c entries', () => {
  it('refuses a JWS with a fourth part, and one whose parts do not decode', async () => {
    const jwt = await signedMetadata(pki)
    await refusal(verify(`${jwt}.extra`), 'it is not a compact JWS with a JSON object header')
    const [header, , signature] = jwt.split('.')
    const error = await refusal(
      verify(`${header}.${base64Url('[1,2]')}.${signature}`),
      'it is not a compact JWS (',
    )
    expect(error.cause).toBeInstanceOf(CryptoError)
    expect(error.message).toContain(`it is not a compact JWS (${(error.cause as Error).message})`)
  })

  it('refuses three parts whose header is not a JSON object', async () => {
    const [, claims, signature] = (await signedMetadata(pki)).split('.')
    for (const header of ['not-json', base64Url('"RS256"'), base64Url('[]')]) {
      await refusal(
        verify(`${header}.${claims}.${signature}`),
        'it is not a compact JWS with a JSON object header',
      )
    }
  })

  it('refuses x5c entries holding PEM text: x5c is base64 of DER (RFC 7515 §4.1.6)', async () => {
    const pemOf = (der: Uint8Array) => encodePem(der, 'CERTIFICATE')
    const [leaf, intermediate] = pki.server.chainDer as [Uint8Array, Uint8Array]
    const text = (value: string) => new TextEncoder().encode(value)
    const entries = [
      [text(pemOf(leaf)), text(pemOf(intermediate))],
      [text(`\ufeff \r\n${pemOf(leaf)}`), intermediate],
      [text(pemOf(leaf) + pemOf(intermediate))],
    ]
    for (const chain of entries) {
      const error = await refusal(
        verify(await signedMetadata(pki, { header: { x5c: x5cOf(chain) } })),
        'header x5c[0] is not an X.509 certificate: x5c entries are standard base64 of DER',
      )
      expect(error.cause).toBeUndefined()
    }
    await refusal(
      verify(
        await signedMetadata(pki, { header: { x5c: x5cOf([leaf, text(pemOf(intermediate))]) } }),
      ),
      'header x5c[1] is not an X.509 certificate: x5c entries are standard base64 of DER',
    )
    await expect(verify(await signedMetadata(pki))).resolves.toBeDefined()
  })

  it('refuses x5c entries that are not strings or decode to no bytes', async () => {
    for (const entry of [42, null, '']) {
      await refusal(
        verify(await signedMetadata(pki, { header: { x5c: [entry] } })),
        'header x5c[0] is not standard-base64 DER',
      )
    }
  })
})

describe('what a backend failure becomes', () => {
  const failing = (member: keyof CryptoBackend, error: Error): CryptoBackend => ({
    ...webCryptoBackend,
    [member]: async () => {
      throw error
    },
  })

  it('passes on an error that is not a CryptoError, unwrapped', async () => {
    const bug = new TypeError('a bug in the backend')
    for (const member of [
      'parseCertificate',
      'verifySignature',
      'verifyCertificateChain',
    ] as const) {
      const outcome = await failureOf(
        verify(await signedMetadata(pki), { crypto: failing(member, bug) }),
        TypeError,
      )
      expect(outcome).toBe(bug)
    }
  })

  it('names a signature that cannot be checked, with the CryptoError as cause', async () => {
    const cause = new CryptoError('unsupported-key', 'no RSA here')
    const error = await refusal(
      verify(await signedMetadata(pki), { crypto: failing('verifySignature', cause) }),
      'the RS256 signature cannot be checked with the key of x5c[0]',
    )
    expect(error.cause).toBe(cause)
  })

  it('lists the SAN URIs of the signing certificate, or none', async () => {
    const serverSans = (
      await webCryptoBackend.parseCertificate(pki.server.chainDer[0] as Uint8Array)
    ).subjectAltNameUris
    expect(serverSans.length).toBeGreaterThan(1)
    const elsewhere = 'https://elsewhere.example.test/r4'
    await refusal(
      verify(await signed({ iss: elsewhere, sub: elsewhere }), { baseUrl: elsewhere }),
      `iss "${elsewhere}" is not a URI subject alternative name of the signing certificate (${serverSans.map((uri) => JSON.stringify(uri)).join(', ')})`,
    )
    await refusal(
      verify(
        await signedMetadata(pki, {
          chainDer: pki.clientRsa.chainDer,
          key: pki.clientRsa.privateKeyPem,
        }),
      ),
      `iss "${baseUrl}" is not a URI subject alternative name of the signing certificate (${JSON.stringify(clientUri)})`,
    )
    const withoutSans: CryptoBackend = {
      ...webCryptoBackend,
      parseCertificate: async (der) => ({
        ...(await webCryptoBackend.parseCertificate(der)),
        subjectAltNameUris: [],
      }),
    }
    await refusal(
      verify(await signedMetadata(pki), { crypto: withoutSans }),
      `iss "${baseUrl}" is not a URI subject alternative name of the signing certificate (none)`,
    )
  })
})

describe('what each refusal names', () => {
  it('refuses an empty iss as missing', async () => {
    await refusal(verify(await signed({ iss: '' })), 'iss is missing')
  })

  it('names the options it cannot use', async () => {
    await expect(verifySignedMetadata(undefined as never)).rejects.toMatchObject({
      name: 'ConfigurationError',
      message: expect.stringContaining('verifySignedMetadata'),
    })
    await expect(verify(await signedMetadata(pki), { baseUrl: ' ' })).rejects.toMatchObject({
      invalidAttribute: 'baseUrl',
    })
    await expect(
      verify(await signedMetadata(pki), { now: 'today' as never }),
    ).rejects.toMatchObject({ invalidAttribute: 'now' })
  })
})
