import {
  CertificateChainError,
  ConfigurationError,
  CryptoError,
  DiscoveryError,
  HttpError,
  RegistrationError,
  TokenError,
} from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { exitCodeFor, exitCodes, isTrustFailure } from '../src/index.js'

const endpoint = 'https://fhir.example.test/.well-known/udap'
const chainFailure = new CertificateChainError('revoked', 'the leaf is revoked', 'CN=leaf')

describe('exitCodeFor', () => {
  it.each([
    [
      'ConfigurationError',
      new ConfigurationError({ invalidAttribute: 'clientId' }),
      exitCodes.usage,
    ],
    [
      'CryptoError (a local key or PKCS#12 file)',
      new CryptoError('pkcs12-password', 'wrong password'),
      exitCodes.usage,
    ],
    [
      'TokenError',
      new TokenError({ message: 'refused', status: 400, error: 'invalid_grant' }),
      exitCodes.failure,
    ],
    [
      'RegistrationError',
      new RegistrationError({ message: 'refused', status: 401 }),
      exitCodes.failure,
    ],
    [
      'HttpError',
      new HttpError({ message: 'down', reason: 'network', url: endpoint }),
      exitCodes.failure,
    ],
    [
      'DiscoveryError (HTTP 404)',
      new DiscoveryError({ message: 'UDAP discovery failed: HTTP 404', endpoint, status: 404 }),
      exitCodes.failure,
    ],
    ['CertificateChainError', chainFailure, exitCodes.trust],
    [
      'DiscoveryError caused by a CertificateChainError',
      new DiscoveryError({ message: 'chain not trusted', endpoint }, { cause: chainFailure }),
      exitCodes.trust,
    ],
    [
      'DiscoveryError of a signed_metadata check',
      new DiscoveryError({
        message: `signed_metadata from ${endpoint} failed validation: sub does not equal iss`,
        endpoint,
      }),
      exitCodes.trust,
    ],
    [
      'RegistrationError caused (two links down) by a CertificateChainError',
      new RegistrationError(
        { message: 'refused' },
        { cause: new DiscoveryError({ message: 'x', endpoint }, { cause: chainFailure }) },
      ),
      exitCodes.trust,
    ],
    ['a foreign error (a bug)', new TypeError('x is undefined'), exitCodes.failure],
    ['a thrown string', 'boom', exitCodes.failure],
  ])('%s', (_, error, expected) => {
    expect(exitCodeFor(error)).toBe(expected)
  })

  it('has the documented values', () => {
    expect(exitCodes).toEqual({ success: 0, failure: 1, usage: 2, trust: 3 })
  })

  it('does not treat an unrelated DiscoveryError mentioning signed_metadata mid-message as a trust failure', () => {
    const error = new DiscoveryError({ message: 'UDAP metadata lacks signed_metadata', endpoint })
    expect(isTrustFailure(error)).toBe(false)
  })
})
