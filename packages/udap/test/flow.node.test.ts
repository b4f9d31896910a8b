/**
 * Node only: the same flow as `flow.test.ts` with the node:crypto backend and a PKI minted at run
 * time (dates relative to the real clock).
 */
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { it } from 'vitest'
import { createIssuedPki } from './support/issued-pki.js'
import { walkUdapFlow } from './support/udap-flow.js'

it('walks the UDAP flow with the node:crypto backend and a freshly minted PKI', async () => {
  await walkUdapFlow(createNodeCryptoBackend(), await createIssuedPki())
})
