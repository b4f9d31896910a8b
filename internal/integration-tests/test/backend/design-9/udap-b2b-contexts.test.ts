/**
 * DESIGN §9: for UDAP, one cache entry per whole `hl7-b2b` context ("an access token may only be
 * used in the context it was asked for").
 */
import type { B2bAuthorizationExtension } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import { udapClient, udapServer } from './support/udap-token-server.js'

const base: B2bAuthorizationExtension = {
  organizationId: 'https://org.example.test/a',
  organizationName: 'Org A',
  purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
  subjectName: 'Dr. A',
  subjectId: '1234567890',
  subjectRole: 'http://nucc.org/provider-taxonomy#207Q00000X',
  consentPolicy: ['https://consent.example.test/policy-1'],
  consentReference: ['https://consent.example.test/ref-1'],
}

const variants: Array<[string, B2bAuthorizationExtension]> = [
  ['organizationId', { ...base, organizationId: 'https://org.example.test/b' }],
  ['organizationName', { ...base, organizationName: 'Org B' }],
  ['purposeOfUse', { ...base, purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#HPAYMT'] }],
  ['subjectName', { ...base, subjectName: 'Dr. B' }],
  ['subjectId', { ...base, subjectId: '0987654321' }],
  ['subjectRole', { ...base, subjectRole: 'http://nucc.org/provider-taxonomy#208D00000X' }],
  ['consentPolicy', { ...base, consentPolicy: ['https://consent.example.test/policy-2'] }],
  ['consentReference', { ...base, consentReference: ['https://consent.example.test/ref-2'] }],
  ['a member left out (consentReference)', (({ consentReference: _, ...rest }) => rest)(base)],
  [
    'an extra purposeOfUse',
    { ...base, purposeOfUse: [...base.purposeOfUse, 'urn:oid:2.16.840.1.113883.5.8#HPAYMT'] },
  ],
]

describe('DESIGN §9 cache entries (UDAP hl7-b2b context)', () => {
  it('the same context twice shares one token', async () => {
    const server = udapServer()
    const client = udapClient(server)
    expect(await client.backendTokens({ b2b: base }).accessToken()).toBe('udap-1')
    expect(await client.backendTokens({ b2b: { ...base } }).accessToken()).toBe('udap-1')
    expect(server.tokenRequests()).toBe(1)
  })

  it.each(variants)('a context differing only in %s gets its own token', async (_member, other) => {
    const server = udapServer()
    const client = udapClient(server)
    expect(await client.backendTokens({ b2b: base }).accessToken()).toBe('udap-1')
    expect(await client.backendTokens({ b2b: other }).accessToken()).toBe('udap-2')
    expect(await client.backendTokens({ b2b: base }).accessToken()).toBe('udap-1')
    expect(server.tokenRequests()).toBe(2)
    const [first, second] = server.b2bContexts as Array<Record<string, unknown>>
    expect(first).not.toEqual(second)
  })

  it('the same context with its members written in another order shares one token', async () => {
    const server = udapServer()
    const client = udapClient(server)
    const reversed = Object.fromEntries(
      Object.entries(base).reverse(),
    ) as unknown as B2bAuthorizationExtension
    await client.backendTokens({ b2b: base }).accessToken()
    expect(await client.backendTokens({ b2b: reversed }).accessToken()).toBe('udap-1')
  })

  it('a context and no context at all are different entries', async () => {
    const server = udapServer()
    const client = udapClient(server)
    await client.backendTokens({ b2b: base }).accessToken()
    const without = await client
      .backendTokens()
      .accessToken()
      .catch((error: unknown) => error)
    // a server may require hl7-b2b; whatever happens, the b2b token is not reused
    expect(without).not.toBe('udap-1')
  })
})
