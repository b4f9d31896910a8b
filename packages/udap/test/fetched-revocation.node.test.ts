/** Issue 30: the "revocation fetched" cases with the crypto-node backend. */
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { describeFetchedRevocation } from './support/fetched-revocation-cases.js'

describeFetchedRevocation('crypto-node', () => createNodeCryptoBackend())
