/** Node only: the own-chain checks of `own-chain.test.ts` with the node:crypto backend. */
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { describeOwnChainChecks } from './support/own-chain-cases.js'

describeOwnChainChecks('crypto-node', () => createNodeCryptoBackend())
