import { DiscoveryError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { requireDiscoveredEndpoint, SmartMetadata } from '../src/index.js'

const endpoint = 'https://fhir.example.org/.well-known/smart-configuration'

function metadata(document: Record<string, unknown>): SmartMetadata {
  return SmartMetadata.fromJson(document, { baseUrl: 'https://fhir.example.org', endpoint })
}

function failure(action: () => unknown): DiscoveryError {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(DiscoveryError)
    expect((error as DiscoveryError).endpoint).toBe(endpoint)
    return error as DiscoveryError
  }
  throw new Error('expected a DiscoveryError')
}

describe('requireDiscoveredEndpoint', () => {
  it.each(['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const)(
    'returns a discovered HTTPS %s',
    (field) => {
      expect(
        requireDiscoveredEndpoint(
          metadata({ [field]: 'https://auth.example.org/x' }),
          field,
          false,
        ),
      ).toBe('https://auth.example.org/x')
    },
  )

  it('returns a relative endpoint resolved against the FHIR base', () => {
    expect(
      requireDiscoveredEndpoint(
        metadata({ token_endpoint: 'oauth/token' }),
        'token_endpoint',
        false,
      ),
    ).toBe('https://fhir.example.org/oauth/token')
  })

  it.each(['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const)(
    'names a missing %s',
    (field) => {
      const error = failure(() => requireDiscoveredEndpoint(metadata({}), field, false))
      expect(error.message).toContain(field)
    },
  )

  it.each([
    'http://auth.example.org/authorize',
    'javascript:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
  ])('refuses %s', (value) => {
    const error = failure(() =>
      requireDiscoveredEndpoint(
        metadata({ authorization_endpoint: value }),
        'authorization_endpoint',
        true,
      ),
    )
    expect(error.message).toContain('authorization_endpoint')
  })

  it('accepts loopback HTTP only under allowInsecureLocalhost', () => {
    const document = metadata({ token_endpoint: 'http://localhost:3000/token' })
    expect(requireDiscoveredEndpoint(document, 'token_endpoint', true)).toBe(
      'http://localhost:3000/token',
    )
    const error = failure(() => requireDiscoveredEndpoint(document, 'token_endpoint', false))
    expect(error.message).toContain('allowInsecureLocalhost')
  })

  it('refuses a value that is not an absolute URL', () => {
    const document = SmartMetadata.fromJson(
      { token_endpoint: 'token' },
      { baseUrl: 'not a url', endpoint },
    )
    expect(
      failure(() => requireDiscoveredEndpoint(document, 'token_endpoint', false)).message,
    ).toContain('not an absolute URL')
  })
})
