/**
 * RFC 9207 when the issuer a server names is not bound to it (ADR 0013): every `iss` fails, and
 * the message says why; a server that always sends `iss` but names no usable issuer still needs
 * one. Written for `pnpm test:mutation` over src/launch/authorization-callback.ts.
 */
import { AuthorizationError } from '@fhir-auth/client'
import { expect, it } from 'vitest'
import { checkCallbackAfterState, readCallback } from '../src/launch/authorization-callback.js'

const why =
  'the issuer https://a.example/ named by the SMART configuration is not bound to this server'

function refusal(query: string, expected: Parameters<typeof checkCallbackAfterState>[1]) {
  try {
    checkCallbackAfterState(readCallback(query), expected)
  } catch (error) {
    return error
  }
  throw new Error('the callback was accepted')
}

it('refuses any iss when the issuer is unbound, naming why', () => {
  for (const iss of ['https://a.example/', 'https://b.example/', '']) {
    const error = refusal(`?state=s&code=c&iss=${encodeURIComponent(iss)}`, {
      issuer: undefined,
      issRequired: false,
      unbound: why,
    })
    expect(error).toBeInstanceOf(AuthorizationError)
    expect(error).toMatchObject({
      error: 'iss_mismatch',
      state: 's',
      message: `the authorization response names an issuer, but ${why} (RFC 9207)`,
    })
  }
})

it('accepts a callback without iss from a server that does not always send one, bound or not', () => {
  const expected = { issuer: undefined, issRequired: false, unbound: why }
  expect(checkCallbackAfterState(readCallback('?state=s&code=c'), expected)).toBe('c')
})

it('says "the server" when one that always sends iss names no issuer to expect', () => {
  const error = refusal('?state=s&code=c', { issuer: undefined, issRequired: true, unbound: why })
  expect(error).toMatchObject({
    error: 'iss_mismatch',
    message:
      'the authorization response has no iss although the server always sends one (RFC 9207)',
  })
})
