import { describe, expect, it } from 'vitest'
import { backendTokenCacheId, canonicalJson } from '../src/tokens/backend-token-identity.js'

const base = {
  tokenEndpoint: 'https://as.example/token',
  clientId: 'svc',
  scopes: ['system/Patient.rs', 'system/Observation.rs'],
}

describe('backendTokenCacheId', () => {
  it('is the same for the same scopes in another order, duplicates included, and key order', async () => {
    const one = await backendTokenCacheId({
      ...base,
      context: { purpose_of_use: ['TREAT'], organization_id: 'o' },
    })
    const two = await backendTokenCacheId({
      ...base,
      scopes: ['system/Observation.rs', 'system/Patient.rs', 'system/Patient.rs'],
      context: { organization_id: 'o', purpose_of_use: ['TREAT'] },
    })
    expect(one).toBe(two)
    expect(one).toMatch(/^[\w-]{43}$/)
  })

  it('differs when any part of the identity differs, however deep in the b2b context', async () => {
    const reference = await backendTokenCacheId({
      ...base,
      context: { organization_id: 'o', consent_policy: ['a'] },
    })
    const variants = [
      { ...base, tokenEndpoint: 'https://as.example/token2' },
      { ...base, clientId: 'svc2' },
      { ...base, scopes: ['system/Patient.rs'] },
      { ...base, context: { organization_id: 'o', consent_policy: ['b'] } },
      { ...base, context: { organization_id: 'o' } },
      { ...base },
    ]
    for (const variant of variants) expect(await backendTokenCacheId(variant)).not.toBe(reference)
  })
})

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order, drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: undefined, b: null }], c: 'x' })).toBe(
      '{"a":[{"b":null,"d":1}],"b":1,"c":"x"}',
    )
  })
})
