import { describe, expect, it } from 'vitest'
import { SecretLedger, scrubMarker } from './secret-ledger.js'

describe('SecretLedger', () => {
  it('keeps each secret once, with its URL-encoded form when that differs', () => {
    const ledger = new SecretLedger()
    ledger.add('client secret', 'a+b/c=d secret')
    ledger.add('same value again', 'a+b/c=d secret')
    expect(ledger.entries).toEqual([
      { label: 'client secret', value: 'a+b/c=d secret' },
      { label: 'client secret (URL-encoded)', value: 'a%2Bb%2Fc%3Dd%20secret' },
    ])
  })

  it('ignores values too short to recognise and undefined ones', () => {
    const ledger = new SecretLedger()
    ledger.add('short', '1234567')
    ledger.add('absent', undefined)
    expect(ledger.entries).toEqual([])
  })

  it('registers a PEM key whole and line by line, so a partial leak is caught', () => {
    const ledger = new SecretLedger()
    const pem = [
      '-----BEGIN PRIVATE KEY-----',
      'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg',
      'short',
      '-----END PRIVATE KEY-----',
    ].join('\n')
    ledger.addPrivateKeyPem('key', pem)
    expect(ledger.entries.map((entry) => entry.label)).toEqual(['key', 'key (line 1)'])
    expect(ledger.scrub('leaked: MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg!')).toBe(
      `leaked: ${scrubMarker}!`,
    )
  })

  it('scrubs every occurrence, longest secret first', () => {
    const ledger = new SecretLedger()
    ledger.add('token', 'token-value-1')
    ledger.add('longer token', 'token-value-1-and-more')
    expect(ledger.scrub('a token-value-1-and-more b token-value-1 c token-value-1')).toBe(
      `a ${scrubMarker} b ${scrubMarker} c ${scrubMarker}`,
    )
  })
})
