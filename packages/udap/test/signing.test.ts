import { CertificateChainError, ConfigurationError, CryptoError } from '@fhir-auth/core'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  createSoftwareStatement,
  normalizeRegistrationMetadata,
  type PrepareUdapSignerOptions,
  prepareUdapSigner,
} from '../src/index.js'
import { x5cOf } from './support/jws.js'
import { clientUri, createTestPki, registrationEndpoint, type TestPki } from './support/pki.js'
import { verifyWithX5c } from './support/verify.js'

const crypto = webCryptoBackend
let pki: TestPki

beforeAll(async () => {
  pki = await createTestPki()
})

function prepare(overrides: Partial<PrepareUdapSignerOptions> = {}) {
  return prepareUdapSigner({
    crypto,
    privateKey: pki.clientEc.privateKeyPem,
    certificateChain: [pki.clientEc.certificatePem, pki.ecIntermediate.certificatePem],
    clientUri,
    advertisedAlgorithms: ['RS256', 'ES256', 'ES384'],
    now: pki.now,
    ...overrides,
  })
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => error,
  )
}

describe('prepareUdapSigner', () => {
  it('returns a signer for the leaf key with the checked chain for x5c', async () => {
    const { signer, leaf } = await prepare()
    expect(signer.alg).toBe('ES256')
    expect(signer.certificateChain).toEqual([
      pki.clientEc.certificateDer,
      pki.ecIntermediate.certificateDer,
    ])
    expect(leaf.subjectAltNameUris).toEqual([clientUri])
    expect(Object.isFrozen(signer)).toBe(true)
  })

  it('chooses the algorithm from key and server list', async () => {
    const rsa = {
      privateKey: pki.clientRsa.privateKeyPem,
      certificateChain: pki.clientRsa.chainDer,
    }
    expect((await prepare(rsa)).signer.alg).toBe('RS256')
    expect((await prepare({ ...rsa, advertisedAlgorithms: ['ES256', 'RS384'] })).signer.alg).toBe(
      'RS384',
    )
    expect(
      (await prepare({ ...rsa, algorithm: 'RS384', advertisedAlgorithms: ['RS256', 'RS384'] }))
        .signer.alg,
    ).toBe('RS384')
    const p384 = pki.clientP384
    expect(
      (await prepare({ privateKey: p384.privateKeyPem, certificateChain: p384.chainDer })).signer
        .alg,
    ).toBe('ES384')
  })

  it('refuses an explicit algorithm the server does not advertise', async () => {
    const error = await failure(
      prepare({ algorithm: 'ES256', advertisedAlgorithms: ['RS256', 'ES384'] }),
    )
    expect(error).toMatchObject({ name: 'ConfigurationError', invalidAttribute: 'jwtAlgorithm' })
  })

  it('refuses a key for which the server advertises no algorithm', async () => {
    const error = await failure(prepare({ advertisedAlgorithms: ['RS256'] }))
    expect(error).toBeInstanceOf(CryptoError)
    expect((error as CryptoError).reason).toBe('no-common-algorithm')
  })

  it('requires privateKey and certificateChain', async () => {
    await expect(prepare({ privateKey: undefined })).rejects.toMatchObject({
      invalidAttribute: 'privateKey',
    })
    await expect(prepare({ certificateChain: undefined })).rejects.toMatchObject({
      invalidAttribute: 'certificateChain',
    })
    await expect(prepare({ certificateChain: [] })).rejects.toMatchObject({
      invalidAttribute: 'certificateChain',
    })
    const garbage = await failure(
      prepare({ certificateChain: [pki.clientEc.certificatePem, 'garbage'] }),
    )
    expect(garbage).toMatchObject({
      name: 'ConfigurationError',
      invalidAttribute: 'certificateChain',
    })
    expect((garbage as Error).message).toMatch(/certificateChain\[1\]/)
  })

  it('refuses a chain that is not leaf first and issuer-ordered', async () => {
    const error = await failure(
      prepare({
        certificateChain: [pki.ecIntermediate.certificatePem, pki.clientEc.certificatePem],
      }),
    )
    expect(error).toBeInstanceOf(CertificateChainError)
    expect(error).toMatchObject({ reason: 'order' })
    const skipped = await failure(
      prepare({ certificateChain: [pki.clientEc.certificatePem, pki.ecRoot.certificatePem] }),
    )
    expect(skipped).toMatchObject({ reason: 'order' })
  })

  it('accepts a chain that ends with the root', async () => {
    const chain = [
      pki.clientEc.certificatePem,
      pki.ecIntermediate.certificatePem,
      pki.ecRoot.certificatePem,
    ]
    expect((await prepare({ certificateChain: chain })).signer.certificateChain).toHaveLength(3)
  })

  it('refuses an expired or not yet valid certificate', async () => {
    for (const [name, reason] of [
      ['expired', 'expired'],
      ['not-yet-valid', 'not-yet-valid'],
    ] as const) {
      const leaf = pki.leaf(name)
      await expect(
        prepare({ privateKey: leaf.privateKeyPem, certificateChain: leaf.chainDer }),
      ).rejects.toMatchObject({ name: 'CertificateChainError', reason })
    }
    // The test PKI's certificates are valid 2025-01-01 → 2045-01-01: judged at the given time.
    await expect(prepare({ now: new Date('2046-01-01T00:00:00Z') })).rejects.toMatchObject({
      reason: 'expired',
    })
    await expect(prepare({ now: new Date('2024-12-30T00:00:00Z') })).rejects.toMatchObject({
      reason: 'not-yet-valid',
    })
  })

  it('requires clientUri to be exactly a URI SAN of the leaf', async () => {
    for (const candidate of [
      'https://CLIENT.example.test/app',
      `${clientUri}/`,
      'https://other.example.test/app',
    ]) {
      const error = await failure(prepare({ clientUri: candidate }))
      expect(error).toBeInstanceOf(ConfigurationError)
      expect(error).toMatchObject({ invalidAttribute: 'clientUri', validValues: [clientUri] })
    }
    await expect(prepare({ clientUri: 'not a uri' })).rejects.toMatchObject({
      invalidAttribute: 'clientUri',
    })
    await expect(prepare({ clientUri: undefined as never })).rejects.toMatchObject({
      invalidAttribute: 'clientUri',
    })
  })

  it('chooses among several SAN URIs the one given', async () => {
    // This leaf's SANs are clientUri and `${clientUri},second` (a comma inside one URI).
    const multi = pki.leaf('rsa-client-two-sans')
    const second = multi.sanUris[1] ?? ''
    expect(second).toBe(`${clientUri},second`)
    const { signer } = await prepare({
      privateKey: multi.privateKeyPem,
      certificateChain: multi.chainDer,
      clientUri: second,
    })
    const statement = await createSoftwareStatement({
      claims: normalizeRegistrationMetadata(
        {
          client_name: 'c',
          contacts: ['mailto:a@example.org'],
          grant_types: ['client_credentials'],
          scope: 's',
        },
        { operation: 'register' },
      ),
      clientUri: second,
      registrationEndpoint,
      signer,
    })
    expect((await verifyWithX5c(statement)).claims.iss).toBe(second)
  })

  it('takes the chain from a JwsSigner that carries one when none is given, and checks it', async () => {
    const imported = await crypto.importSigner(pki.clientEc.privateKeyPem, { profile: 'udap' })
    const chain = [pki.clientEc.certificateDer, pki.ecIntermediate.certificateDer]
    const hsm = { alg: imported.alg, certificateChain: chain, sign: imported.sign }
    const { signer } = await prepare({ privateKey: hsm, certificateChain: undefined })
    expect(x5cOf(signer.certificateChain ?? [])).toEqual(x5cOf(chain))
    const reversed = { ...hsm, certificateChain: [...chain].reverse() }
    await expect(
      prepare({ privateKey: reversed, certificateChain: undefined }),
    ).rejects.toBeInstanceOf(CertificateChainError)
    // A chain in the configuration wins over the signer's.
    const { signer: configured } = await prepare({ privateKey: reversed })
    expect(x5cOf(configured.certificateChain ?? [])).toEqual(x5cOf(chain))
  })

  it('refuses a key that does not belong to the leaf', async () => {
    const error = await failure(prepare({ privateKey: pki.clientRsa.privateKeyPem }))
    expect(error).toBeInstanceOf(CryptoError)
    expect(error).toMatchObject({ reason: 'key-certificate-mismatch' })
    expect((error as Error).message).not.toContain('PRIVATE KEY')
  })

  it('keeps the checked chain even when the backend attaches another', async () => {
    const wrapping = {
      ...crypto,
      importSigner: async (...args: Parameters<typeof crypto.importSigner>) => ({
        ...(await crypto.importSigner(...args)),
        certificateChain: [new Uint8Array([1])],
      }),
    }
    const { signer } = await prepare({ crypto: wrapping })
    expect(x5cOf(signer.certificateChain ?? [])).toEqual(
      x5cOf([pki.clientEc.certificateDer, pki.ecIntermediate.certificateDer]),
    )
  })
})
