import { describe, expect, it } from 'vitest'
import type { RecordedExchange } from './exchange-recorder.js'
import { harvestSecrets } from './secret-harvest.js'
import { SecretLedger } from './secret-ledger.js'

describe('harvestSecrets', () => {
  it('finds credentials in headers, forms and JSON bodies, and leaves the rest', () => {
    const ledger = new SecretLedger()
    const exchange: RecordedExchange = {
      method: 'POST',
      url: 'https://as.example/token',
      requestHeaders: {
        authorization: `Basic ${Buffer.from('app:s%C3%A9cret+value').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      requestBody: 'grant_type=refresh_token&refresh_token=refresh-token-1&scope=patient%2F*.rs',
      status: 200,
      responseHeaders: new Headers({ 'content-type': 'application/json' }),
      responseBody: JSON.stringify({
        access_token: 'access-token-1',
        token_type: 'Bearer',
        nested: { client_secret: 'issued-secret-1' },
      }),
      failure: undefined,
    }
    harvestSecrets(exchange, ledger)
    const values = ledger.entries.map((entry) => entry.value)
    expect(values).toEqual(
      expect.arrayContaining([
        's%C3%A9cret+value',
        'sécret value',
        'refresh-token-1',
        'access-token-1',
        'issued-secret-1',
      ]),
    )
    expect(values).not.toContain('Bearer')
    expect(values).not.toContain('patient/*.rs')
    expect(values).not.toContain('refresh_token')
  })
})
