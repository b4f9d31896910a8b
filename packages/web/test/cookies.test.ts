/**
 * The cookie rules one by one: which requests get `Secure` and the `__Host-` name, how a
 * `Cookie` header is read (absent, repeated or malformed cookies read as none), the exact
 * `Set-Cookie` attributes, and the launch cookie's list of pending launches.
 */
import { describe, expect, it } from 'vitest'
import {
  clearCookie,
  isSecureRequest,
  readCookie,
  requestCookies,
  setCookie,
} from '../src/cookies.js'
import {
  boundState,
  maximumPendingLaunches,
  pendingStates,
  withLaunch,
  withoutLaunch,
} from '../src/launch-binding.js'

const state = (letter: string) => letter.repeat(43)

describe('Secure', () => {
  it('is left out only for plain http: to a loopback host', () => {
    for (const url of [
      'http://localhost/',
      'http://localhost:3000/x',
      'http://127.0.0.1:8080/',
      'http://127.1.2.3/',
      'http://127.10.100.200/',
      'http://[::1]:3000/',
    ]) {
      expect(isSecureRequest(new URL(url)), url).toBe(false)
    }
    for (const url of [
      'https://localhost/',
      'https://127.0.0.1/',
      'http://app.example/',
      'http://localhost.app.example/',
      'http://127.0.0.1.app.example/',
      'http://my-localhost/',
      'http://10.0.0.1/',
      'http://[::2]/',
    ]) {
      expect(isSecureRequest(new URL(url)), url).toBe(true)
    }
  })

  it('names the cookies __Host-<name> when Secure, <name> otherwise; the option forces it', () => {
    const settings = { name: 'app', secure: undefined, maxAgeSeconds: 60 }
    expect(requestCookies(settings, new URL('https://app.example/'))).toEqual({
      secure: true,
      sessionName: '__Host-app',
      launchName: '__Host-app-launch',
    })
    expect(requestCookies(settings, new URL('http://localhost/'))).toEqual({
      secure: false,
      sessionName: 'app',
      launchName: 'app-launch',
    })
    expect(
      requestCookies({ ...settings, secure: false }, new URL('https://app.example/')).sessionName,
    ).toBe('app')
    expect(
      requestCookies({ ...settings, secure: true }, new URL('http://localhost/')).sessionName,
    ).toBe('__Host-app')
  })
})

describe('readCookie', () => {
  it('reads the one cookie of that name, trimmed', () => {
    expect(readCookie('a=1; fhir-auth=abc; b=2', 'fhir-auth')).toBe('abc')
    expect(readCookie('fhir-auth=abc', 'fhir-auth')).toBe('abc')
    expect(readCookie(' fhir-auth = abc ;x=y', 'fhir-auth')).toBe('abc')
    expect(readCookie('fhir-auth=a=b', 'fhir-auth')).toBe('a=b')
    expect(readCookie('fhir-auth-launch=abc', 'fhir-auth-launch')).toBe('abc')
    expect(readCookie('a=1', 'a')).toBe('1')
  })

  it('reads none when it is absent, repeated or not a plain cookie value', () => {
    expect(readCookie(null, 'fhir-auth')).toBeUndefined()
    expect(readCookie('', 'fhir-auth')).toBeUndefined()
    expect(readCookie('fhir-auth-launch=abc', 'fhir-auth')).toBeUndefined()
    expect(readCookie('x-fhir-auth=abc', 'fhir-auth')).toBeUndefined()
    expect(readCookie('fhir-auth', 'fhir-auth')).toBeUndefined()
    // A pair without `=` names no cookie, even one its text minus a character would name.
    expect(readCookie('fhir-authX', 'fhir-auth')).toBeUndefined()
    expect(readCookie('fhir-auth=abc; fhir-auth=abc', 'fhir-auth')).toBeUndefined()
    expect(readCookie('fhir-auth=a; fhir-auth=b', 'fhir-auth')).toBeUndefined()
    for (const value of ['', 'a b', 'a"b', 'a,b', 'a\\b', 'a\u0000b', 'é', 'x'.repeat(4097)]) {
      expect(readCookie(`fhir-auth=${value}`, 'fhir-auth'), value).toBeUndefined()
    }
    expect(readCookie(`fhir-auth=${'x'.repeat(4096)}`, 'fhir-auth')).toHaveLength(4096)
    expect(readCookie("fhir-auth=!#$%&'()*+-./:<=>?@[]^_`{|}~", 'fhir-auth')).toBe(
      "!#$%&'()*+-./:<=>?@[]^_`{|}~",
    )
  })
})

describe('Set-Cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, with Max-Age, and Secure when asked', () => {
    expect(setCookie('__Host-a', 'v', 600, true)).toBe(
      '__Host-a=v; HttpOnly; SameSite=Lax; Path=/; Max-Age=600; Secure',
    )
    expect(setCookie('a', 'v', 60, false)).toBe('a=v; HttpOnly; SameSite=Lax; Path=/; Max-Age=60')
    expect(clearCookie('a', true)).toBe('a=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0; Secure')
    expect(clearCookie('a', false)).toBe('a=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0')
  })
})

describe('the launch cookie', () => {
  it('lists the pending states, newest last, at most a few', () => {
    expect(withLaunch([], state('a'))).toBe(state('a'))
    expect(withLaunch([state('a')], state('b'))).toBe(`${state('a')}.${state('b')}`)
    expect(withLaunch([state('a'), state('b')], state('a'))).toBe(`${state('b')}.${state('a')}`)
    const full = ['a', 'b', 'c', 'd'].map(state)
    expect(full).toHaveLength(maximumPendingLaunches)
    expect(withLaunch(full, state('e'))).toBe(['b', 'c', 'd', 'e'].map(state).join('.'))
  })

  it('reads back what it wrote, and nothing from a value it did not write', () => {
    expect(pendingStates(undefined)).toEqual([])
    expect(pendingStates(`${state('a')}.${state('b')}`)).toEqual([state('a'), state('b')])
    expect(pendingStates('A'.repeat(16))).toEqual(['A'.repeat(16)])
    expect(pendingStates('A'.repeat(128))).toEqual(['A'.repeat(128)])
    expect(pendingStates(['a', 'b', 'c', 'd'].map(state).join('.'))).toHaveLength(4)
    for (const value of [
      'A'.repeat(15),
      'A'.repeat(129),
      ['a', 'b', 'c', 'd', 'e'].map(state).join('.'),
      `${state('a')}.`,
      `${state('a')}..${state('b')}`,
      `${state('a')}=`,
      `x${state('a')}!`,
      '',
    ]) {
      expect(pendingStates(value), value).toEqual([])
    }
  })

  it('drops a state once it came back; none left clears the cookie', () => {
    expect(withoutLaunch([state('a'), state('b')], state('a'))).toBe(state('b'))
    expect(withoutLaunch([state('a')], state('a'))).toBeUndefined()
    expect(withoutLaunch([state('a')], state('b'))).toBe(state('a'))
  })

  it("binds a callback only to one of this browser's states, given exactly once", () => {
    const states = [state('a'), state('b')]
    expect(boundState(new URLSearchParams(`state=${state('b')}`), states)).toBe(state('b'))
    expect(boundState(new URLSearchParams(`state=${state('c')}`), states)).toBeUndefined()
    expect(boundState(new URLSearchParams(''), states)).toBeUndefined()
    expect(
      boundState(new URLSearchParams(`state=${state('a')}&state=${state('a')}`), states),
    ).toBeUndefined()
    expect(boundState(new URLSearchParams(`state=${state('a')}`), [])).toBeUndefined()
  })
})
