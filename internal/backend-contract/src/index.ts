/**
 * `@fhir-auth/backend-contract`: the contract suite every fhir-auth `CryptoBackend` passes.
 * Internal; runs in Node and in browsers.
 *
 * @packageDocumentation
 */
export { describeBackendContract } from './describe-backend-contract.js'
export type {
  BackendContractOptions,
  ExtraKeyForm,
  ExtraKeyFormSource,
} from './support/contract-context.js'
