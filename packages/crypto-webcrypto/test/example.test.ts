import { CryptoError } from '@fhir-auth/core'
import { signCompactJws } from '@fhir-auth/core/jws'
import { compactVerify, importX509 } from 'jose'
import { describe, expect, it } from 'vitest'
import { createEs384Signer } from '../examples/non-extractable-signer.js'
import { createWebCryptoBackend } from '../src/index.js'
import {
  clientEc384Certificate,
  clientEc384Key,
  clientRsaKey,
} from './fixtures/webcrypto-fixtures.js'
import { ecP384, importPrivateKey, rsaSha384 } from './helpers/keys.js'

describe('examples/non-extractable-signer', () => {
  it('signs a client assertion that verifies with the certificate key', async () => {
    const privateKey = await importPrivateKey(clientEc384Key, ecP384, false)
    expect(privateKey.extractable).toBe(false)
    const signer = createEs384Signer(privateKey, 'key-1')
    const backend = createWebCryptoBackend()
    // The backend accepts the custom signer as it is for SMART and can match it to its certificate.
    expect(await backend.importSigner(signer, { profile: 'smart' })).toBe(signer)
    expect(await backend.keyMatchesCertificate(signer, clientEc384Certificate)).toBe(true)
    const jws = await signCompactJws({ typ: 'JWT', kid: signer.kid }, { iss: 'client' }, signer)
    const { protectedHeader } = await compactVerify(
      jws,
      await importX509(clientEc384Certificate, 'ES384'),
    )
    expect(protectedHeader).toMatchObject({ alg: 'ES384', kid: 'key-1' })
  })

  it('refuses a key of another kind', async () => {
    const rsa = await importPrivateKey(clientRsaKey, rsaSha384, false)
    expect(() => createEs384Signer(rsa, 'k')).toThrow(CryptoError)
  })
})
