/**
 * The builders that cannot do anything without options refuse a missing options object at once,
 * naming the function (not the first member they would have read).
 */
import { ConfigurationError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { buildAuthorizationRequest, createClientAssertion } from '../src/index.js'

const builders = [
  ['buildAuthorizationRequest', buildAuthorizationRequest],
  ['createClientAssertion', createClientAssertion],
] as const

describe('required options', () => {
  describe.each(builders)('%s', (name, builder) => {
    it.each([undefined, null, 'text'])('refuses %s as its options', async (value) => {
      const failure = builder(value as never).then(
        () => expect.fail('expected a ConfigurationError'),
        (error: unknown) => error,
      )
      const error = await failure
      expect(error).toBeInstanceOf(ConfigurationError)
      expect(error).toMatchObject({
        invalidAttribute: 'options',
        message: `options of ${name} must be a readable object, not ${value === null ? 'null' : value === undefined ? 'undefined' : 'a string'}`,
      })
    })
  })
})
