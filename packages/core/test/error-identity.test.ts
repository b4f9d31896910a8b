/**
 * `isInstance` on every error class: `instanceof` that also holds across two installed copies of
 * the library (judged by the stable `code`; the base class's marker says "a fhir-auth error").
 * The two-copies case itself runs in error-identity.node.test.ts, which loads a second copy.
 */
import { describe, expect, it } from 'vitest'
import {
  AuthorizationError,
  CertificateChainError,
  ConfigurationError,
  CryptoError,
  DiscoveryError,
  FhirAuthError,
  HttpError,
  IdTokenError,
  RegistrationError,
  StoreError,
  TokenError,
} from '../src/index.js'

const errors = {
  ConfigurationError: new ConfigurationError({ invalidAttribute: 'clientId' }),
  DiscoveryError: new DiscoveryError({ message: 'm', endpoint: undefined }),
  TokenError: new TokenError({ message: 'm' }),
  RegistrationError: new RegistrationError({ message: 'm' }),
  HttpError: new HttpError({ message: 'm', reason: 'timeout', url: 'https://e' }),
  CryptoError: new CryptoError('invalid-key', 'm'),
  CertificateChainError: new CertificateChainError('revoked', 'm'),
  AuthorizationError: new AuthorizationError({ error: 'access_denied' }),
  IdTokenError: new IdTokenError('aud', 'm'),
  StoreError: new StoreError('get', 'm'),
}
const classes = {
  ConfigurationError,
  DiscoveryError,
  TokenError,
  RegistrationError,
  HttpError,
  CryptoError,
  CertificateChainError,
  AuthorizationError,
  IdTokenError,
  StoreError,
}

describe('isInstance', () => {
  it.each(Object.keys(classes))('%s.isInstance is true for its own errors only', (name) => {
    const errorClass = classes[name as keyof typeof classes] as unknown as {
      isInstance(value: unknown): boolean
    }
    for (const [other, error] of Object.entries(errors)) {
      expect(errorClass.isInstance(error), `${name}.isInstance(${other})`).toBe(other === name)
    }
  })

  it('FhirAuthError.isInstance is true for every fhir-auth error', () => {
    for (const error of Object.values(errors)) expect(FhirAuthError.isInstance(error)).toBe(true)
  })

  it('is false for look-alikes without the marker, and for anything else', () => {
    const lookAlike = Object.assign(new Error('m'), { code: 'ERR_TOKEN', name: 'TokenError' })
    for (const value of [lookAlike, { code: 'ERR_TOKEN' }, null, undefined, 'ERR_TOKEN', 42]) {
      expect(TokenError.isInstance(value)).toBe(false)
      expect(FhirAuthError.isInstance(value)).toBe(false)
    }
  })

  it('narrows the type', () => {
    const unknownError: unknown = errors.TokenError
    if (TokenError.isInstance(unknownError)) expect(unknownError.status).toBeUndefined()
    else expect.unreachable()
  })

  it('each class states its code statically, the same as its instances', () => {
    for (const [name, error] of Object.entries(errors)) {
      expect(classes[name as keyof typeof classes].code).toBe(error.code)
    }
    expect(FhirAuthError.code).toBeUndefined()
  })
})
