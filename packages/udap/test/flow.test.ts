import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { it } from 'vitest'
import { createTestPki } from './support/pki.js'
import { walkUdapFlow } from './support/udap-flow.js'

it('walks discovery, registration, a B2B token request and cancellation with the functions alone', async () => {
  await walkUdapFlow(webCryptoBackend, await createTestPki())
})
