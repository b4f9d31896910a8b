/**
 * DESIGN §9 + §2/§12: a caller passing the wrong JS type to `backendTokens` gets a
 * `ConfigurationError` (never a `TypeError`, never a token request).
 */
import { ConfigurationError } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import { smartClient, smartServer } from './support/smart-token-server.js'

/** The error of building the handle and asking it for a token (either step may refuse). */
async function refusal(options: unknown): Promise<unknown> {
  const server = smartServer()
  try {
    const tokens = smartClient(server).backendTokens(options as never)
    await tokens.accessToken()
  } catch (error) {
    expect(server.tokenRequests()).toBe(0)
    return error
  }
  return 'accepted'
}

const wrong: Array<[string, unknown, string]> = [
  ['options a string', 'system/*.rs', ''],
  ['options a number', 5, ''],
  ['scopes a string', { scopes: 'system/Patient.rs' }, 'scopes'],
  ['scopes with a number', { scopes: [1] }, 'scopes'],
  ['store a string', { store: 'redis' }, 'store'],
  ['store an object without methods', { store: {} }, 'store'],
  ['store missing setIfAbsent', { store: { get() {}, set() {}, delete() {} } }, 'store'],
  ['minValiditySeconds negative', { minValiditySeconds: -1 }, 'minValiditySeconds'],
  ['minValiditySeconds NaN', { minValiditySeconds: Number.NaN }, 'minValiditySeconds'],
  [
    'minValiditySeconds Infinity',
    { minValiditySeconds: Number.POSITIVE_INFINITY },
    'minValiditySeconds',
  ],
  ['minValiditySeconds a string', { minValiditySeconds: '60' }, 'minValiditySeconds'],
]
// Unknown names (`scope` for `scopes`, `signal`) are not probed here: operation options ignore
// unknown names by decision (docs/adr/0008), a reading of DESIGN §12 left to the project lead.

describe('DESIGN §9 backendTokens options of the wrong type', () => {
  it.each(wrong)('%s → ConfigurationError', async (_label, options, attribute) => {
    const error = await refusal(options)
    expect(error).toBeInstanceOf(ConfigurationError)
    if (attribute !== '' && error instanceof ConfigurationError)
      expect(error.invalidAttribute).toBe(attribute)
  })

  it('a huge minValiditySeconds (1e12) is refused or means "renew every time" (expiresAt − 1e12 s is past)', async () => {
    const server = smartServer({ expiresIn: 300 })
    let outcome: unknown
    try {
      const tokens = smartClient(server).backendTokens({ minValiditySeconds: 1e12 })
      outcome = [await tokens.accessToken(), await tokens.accessToken()]
    } catch (error) {
      outcome = error
    }
    if (Array.isArray(outcome)) expect(outcome).toEqual(['token-1', 'token-2'])
    else expect(outcome).toBeInstanceOf(ConfigurationError)
  })

  it('a fractional minValiditySeconds is a number of seconds like any other', async () => {
    const server = smartServer({ expiresIn: 300 })
    const tokens = smartClient(server).backendTokens({ minValiditySeconds: 0.5 })
    expect(await tokens.accessToken()).toBe('token-1')
    expect(await tokens.accessToken()).toBe('token-1')
  })
})
