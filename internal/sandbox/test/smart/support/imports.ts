export { ConfigurationError as ConfigurationErrorForTests } from '@fhir-auth/core'
export { type ClientKeys, generateClientKeys } from '../../../src/index.js'
