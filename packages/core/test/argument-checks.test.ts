/**
 * The argument checks every package shares (`@fhir-auth/core/internal`): one wording for a
 * wrong type, options objects read once as own members, and the transport options' ranges
 * (DESIGN §12: `timeoutMs` an integer in 1…2 147 483 647, `signal` an `AbortSignal`).
 */
import { describe, expect, it } from 'vitest'
import {
  describeKind,
  optionalScopes,
  optionalSignal,
  optionalString,
  readOptions,
  requireMaxResponseBytes,
  requireNonBlankString,
  requireScopes,
  requireTimeoutMs,
  usableScopes,
  wrongType,
} from '../src/internal.js'
import { configurationError } from './support/configuration-error.js'

describe('describeKind', () => {
  it.each([
    [null, 'null'],
    [undefined, 'undefined'],
    ['  ', 'a blank string'],
    ['x', 'a string'],
    [3, 'a number'],
    [[], 'an array'],
    [{}, 'an object'],
    [Symbol('s'), 'a symbol'],
    [() => 1, 'a function'],
  ])('describes %s as %s, never by its value', (value, kind) => {
    expect(describeKind(value)).toBe(kind)
  })

  it('describes a revoked Proxy without throwing', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    expect(describeKind(proxy)).toBe('an object')
  })
})

describe('wrongType: the one wording', () => {
  it('says "<attribute> must be <expected>, not <kind>" and keeps secrets out of invalidValue', () => {
    const error = wrongType('clientSecret', 'a string', 42, true)
    expect(error.message).toBe('clientSecret must be a string, not a number')
    expect(error.invalidAttribute).toBe('clientSecret')
    expect(error.invalidValue).toBe('a number')
    expect(wrongType('launch', 'a string', 42).invalidValue).toBe(42)
  })

  it('is the wording of the string and scope checks', () => {
    expect(configurationError(() => optionalString(3, 'launch')).message).toBe(
      'launch must be a string, not a number',
    )
    expect(configurationError(() => requireNonBlankString(3, 'code')).message).toBe(
      'code must be a non-blank string, not a number',
    )
    expect(configurationError(() => optionalScopes([1], 'scopes')).message).toBe(
      'scopes must be an array of strings, not an array with an entry that is not a string',
    )
  })
})

describe('strings and scopes', () => {
  it('requireNonBlankString: absent is "required", blank or another type is a wrong type', () => {
    expect(requireNonBlankString('x', 'code')).toBe('x')
    for (const absent of [undefined, null, '']) {
      expect(configurationError(() => requireNonBlankString(absent, 'code')).message).toBe(
        'code is required',
      )
    }
    expect(configurationError(() => requireNonBlankString('  ', 'code')).invalidValue).toBe(
      'a blank string',
    )
  })

  it('optionalString: absent stays undefined, blank is returned as given', () => {
    expect(optionalString(undefined, 'launch')).toBeUndefined()
    expect(optionalString(null, 'launch')).toBeUndefined()
    expect(optionalString('', 'launch')).toBe('')
  })

  it('scope lists: usable entries, optional lists, required lists', () => {
    expect(usableScopes(['a', ' ', 'b'])).toEqual(['a', 'b'])
    expect(usableScopes([' '])).toBeUndefined()
    expect(usableScopes('a b')).toBeUndefined()
    expect(optionalScopes(null, 'scopes')).toBeUndefined()
    expect(requireScopes(['a', '', 'b'])).toBe('a b')
    expect(configurationError(() => requireScopes([])).invalidAttribute).toBe('scopes')
  })
})

describe('readOptions', () => {
  it('gives {} for an absent optional object and refuses an absent required one', () => {
    expect(readOptions(undefined, 'op')).toEqual({})
    expect(readOptions(null, 'op')).toEqual({})
    const error = configurationError(() => readOptions(undefined, 'op', { required: true }))
    expect(error.invalidAttribute).toBe('options')
    expect(error.message).toBe('options of op must be a readable object, not undefined')
  })

  it.each([
    ['a string', 'x'],
    ['a number', 1],
    ['an array', []],
    ['a function', () => 1],
  ])('refuses %s', (kind, value) => {
    const error = configurationError(() => readOptions(value as never, 'op'))
    expect(error.invalidAttribute).toBe('options')
    expect(error.invalidValue).toBe(kind)
  })

  it('copies own members once into an object without a prototype; inherited members are not read', () => {
    let reads = 0
    const input = Object.create(
      { inherited: 'from the prototype' },
      {
        counted: { enumerable: true, get: () => ++reads },
      },
    ) as Record<string, unknown>
    input.own = 'own'
    const copy = readOptions(input, 'op') as Record<string, unknown>
    expect(copy).toEqual({ counted: 1, own: 'own' })
    expect(Object.getPrototypeOf(copy)).toBeNull()
    expect(copy.inherited).toBeUndefined()
    expect(copy.counted).toBe(1)
    expect(reads).toBe(1)
  })

  it('turns a throwing getter or Proxy trap into a ConfigurationError without its message', () => {
    const getter = Object.defineProperty({}, 'code', {
      enumerable: true,
      get: () => {
        throw new Error('secret-in-the-getter')
      },
    })
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('secret-in-the-trap')
        },
      },
    )
    for (const hostile of [getter, trap]) {
      const error = configurationError(() => readOptions(hostile, 'op'))
      expect(error.invalidAttribute).toBe('options')
      expect(`${error.message} ${String(error.cause)}`).not.toContain('secret-in')
    }
  })

  it('refuses unknown own members, constructor and __proto__ included, saying "unknown attribute"', () => {
    const known = ['code', 'codeVerifier']
    for (const input of [
      { codeVerifer: 'typo' },
      { constructor: 'x' },
      JSON.parse('{"__proto__": {"polluted": true}}'),
      { toString: () => 'x' },
    ]) {
      const [name] = Object.keys(input)
      const error = configurationError(() => readOptions(input, 'op', { known }))
      expect(error.invalidAttribute).toBe(name)
      expect(error.message).toContain('unknown attribute')
      expect(error.message).toContain('valid attributes: code, codeVerifier')
      expect(error.validValues).toEqual(known)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('accepts the known members, and ignores inherited ones even when unknown', () => {
    const input = Object.create({ inheritedTypo: 1 }) as Record<string, unknown>
    input.code = 'c'
    expect(readOptions(input, 'op', { known: ['code'] })).toEqual({ code: 'c' })
  })
})

describe('transport options (DESIGN §12)', () => {
  it.each([1, 10_000, 2_147_483_647])('accepts timeoutMs %d', (value) => {
    expect(requireTimeoutMs(value)).toBe(value)
  })

  it.each([0, -1, 1.5, 2_147_483_648, 3e9, Number.NaN, Number.POSITIVE_INFINITY, '1000', null])(
    'refuses timeoutMs %s, naming it',
    (value) => {
      const error = configurationError(() => requireTimeoutMs(value))
      expect(error.invalidAttribute).toBe('timeoutMs')
      expect(error.message).toContain('an integer from 1 to 2147483647')
    },
  )

  it('refuses a maxResponseBytes that would disable the size cap', () => {
    expect(requireMaxResponseBytes(1024)).toBe(1024)
    for (const value of [0, -1, 1.5, 'big', Number.NaN]) {
      expect(configurationError(() => requireMaxResponseBytes(value)).invalidAttribute).toBe(
        'maxResponseBytes',
      )
    }
  })

  it('accepts an AbortSignal or nothing as signal, and refuses anything else', () => {
    const signal = new AbortController().signal
    expect(optionalSignal(signal)).toBe(signal)
    expect(optionalSignal(undefined)).toBeUndefined()
    expect(optionalSignal(null)).toBeUndefined()
    for (const value of [{}, 'abort', 1, { aborted: false, addEventListener: () => {} }]) {
      const error = configurationError(() => optionalSignal(value))
      expect(error.invalidAttribute).toBe('signal')
      expect(error.message).toContain('must be an AbortSignal')
    }
  })
})
