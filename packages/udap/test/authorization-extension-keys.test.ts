/**
 * An extension key `__proto__` (an own member, as `JSON.parse` makes it) cannot be copied or
 * assigned in JavaScript without becoming a prototype: it was dropped without a word (alone, the
 * extensions came back `undefined`). It is refused, like a value that is not a JSON object.
 */
import { ConfigurationError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { buildAuthorizationExtensions } from '../src/index.js'

function refusal(run: () => unknown): ConfigurationError {
  try {
    run()
  } catch (error) {
    if (error instanceof ConfigurationError) return error
    throw error
  }
  throw new Error('no ConfigurationError')
}

describe('buildAuthorizationExtensions and the key __proto__', () => {
  it.each([
    ['alone', '{"__proto__": {"version": "1"}}'],
    ['beside another extension', '{"tefca_ias": {"version": "1"}, "__proto__": {"version": "1"}}'],
    ['in a null-prototype object', null],
  ])('refuses it %s on extensions, naming it', (_name, json) => {
    let extensions: unknown
    if (json === null) {
      const bare = Object.create(null) as Record<string, unknown>
      Reflect.set(bare, '__proto__', { version: '1' })
      extensions = bare
    } else {
      extensions = JSON.parse(json)
    }
    expect(Object.keys(extensions as object)).toContain('__proto__')
    const error = refusal(() => buildAuthorizationExtensions({ extensions: extensions as never }))
    expect(error.invalidAttribute).toBe('extensions')
    expect(error.message).toContain('"__proto__"')
  })

  it('still takes keys that only look special', () => {
    const extensions = buildAuthorizationExtensions({
      extensions: JSON.parse('{"constructor": {"a": 1}, "__proto": {"b": 2}}'),
    })
    expect(Object.keys(extensions ?? {})).toEqual(['constructor', '__proto'])
  })
})
