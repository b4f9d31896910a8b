import { ConfigurationError, CryptoError } from '@fhir-auth/core'
import { describe, expect, it, vi } from 'vitest'
import { createWebCryptoBackend } from '../src/index.js'
import { clientEc256Key, clientRsaKey } from './fixtures/webcrypto-fixtures.js'
import { rejectionOf } from './helpers/keys.js'

const secretText = 'SECRET-KEY-BYTES-0xdeadbeef'

/** A SubtleCrypto whose methods delegate to the real one unless overridden. */
function subtleWith(overrides: Partial<SubtleCrypto>): SubtleCrypto {
  const real = globalThis.crypto.subtle
  return new Proxy(real, {
    get(target, property) {
      const override = overrides[property as keyof SubtleCrypto]
      if (override !== undefined) return override
      const value = Reflect.get(target, property)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

describe('WebCrypto failures become typed errors without their text', () => {
  it.each([
    ['DataError', 'invalid-key'],
    ['NotSupportedError', 'unsupported-key'],
  ])('maps an importKey %s to %s', async (name, reason) => {
    const backend = createWebCryptoBackend({
      subtle: subtleWith({ importKey: () => Promise.reject(new DOMException(secretText, name)) }),
    })
    const error = await rejectionOf(backend.importSigner(clientRsaKey, { profile: 'smart' }))
    expect(error).toBeInstanceOf(CryptoError)
    expect((error as CryptoError).reason).toBe(reason)
    expect((error as Error).message).toContain(name)
    expect((error as Error).message).not.toContain(secretText)
    expect((error as Error).cause).toBeUndefined()
  })

  it('maps a failing sign to invalid-signature', async () => {
    const backend = createWebCryptoBackend({
      subtle: subtleWith({
        sign: () => Promise.reject(new DOMException(secretText, 'OperationError')),
      }),
    })
    const signer = await backend.importSigner(clientEc256Key, { profile: 'udap' })
    const error = await rejectionOf(signer.sign(new Uint8Array([1])))
    expect((error as CryptoError).reason).toBe('invalid-signature')
    expect((error as Error).message).not.toContain(secretText)
  })

  it('refuses signing input that is not bytes', async () => {
    const backend = createWebCryptoBackend()
    const signer = await backend.importSigner(clientEc256Key, { profile: 'udap' })
    const error = await rejectionOf(signer.sign('text' as never))
    expect((error as CryptoError).reason).toBe('invalid-signature')
  })
})

describe('the SubtleCrypto source', () => {
  it('uses the injected SubtleCrypto', async () => {
    const importKey = vi.fn(globalThis.crypto.subtle.importKey.bind(globalThis.crypto.subtle))
    const backend = createWebCryptoBackend({
      subtle: subtleWith({ importKey: importKey as unknown as SubtleCrypto['importKey'] }),
    })
    await backend.importSigner(clientEc256Key, { profile: 'udap' })
    expect(importKey).toHaveBeenCalledOnce()
  })

  it('looks WebCrypto up at call time and names the problem when it is missing', async () => {
    const backend = createWebCryptoBackend()
    vi.stubGlobal('crypto', undefined)
    try {
      const error = await rejectionOf(backend.importSigner(clientEc256Key, { profile: 'udap' }))
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('subtle')
    } finally {
      vi.unstubAllGlobals()
    }
    expect(globalThis.crypto.subtle).toBeDefined()
  })
})
