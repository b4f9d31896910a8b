/**
 * Node only: `util.inspect` (what `console.log` prints in Node) must not show secrets either. The
 * portable redaction rules run everywhere in `client-config.test.ts`.
 */
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { ClientConfig } from '../src/index.js'

describe('ClientConfig under util.inspect', () => {
  it('never shows the client secret or private key, even with showHidden', () => {
    const secret = 'super-secret-value-123'
    const key =
      '-----BEGIN PRIVATE KEY-----\nMIIBVwIBADANBgkqhkiG9w0BAQEFAASCAUEwggE9AgEAAkEA\n-----END PRIVATE KEY-----'
    const config = new ClientConfig({
      baseUrl: 'https://ehr.example.org/fhir',
      clientSecret: secret,
      privateKey: key,
      certificateChain: ['PEM'],
    })
    for (const rendered of [
      inspect(config),
      inspect(config, { showHidden: true, depth: 10 }),
      inspect({ nested: { config } }, { depth: 10 }),
    ]) {
      expect(rendered).not.toContain(secret)
      expect(rendered).not.toContain('MIIBVwIBADAN')
      expect(rendered).toContain('[REDACTED]')
    }
  })
})
