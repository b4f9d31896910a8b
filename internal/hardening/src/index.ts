/**
 * `@fhir-auth/hardening`: the helpers of fhir-auth's hardening suites — hostile JSON and byte
 * generators (fast-check), a scripted `fetch`, the typed-outcome check every hostile case
 * ends with, process guards, and a UDAP test PKI that signs anything.
 *
 * @packageDocumentation
 */

export {
  prototypePollutionSince,
  type RejectionWatch,
  settleRejectionEvents,
  snapshotPrototypes,
  watchUnhandledRejections,
} from './global-guards.js'
export { mutatedBytes, wrongTypeInputs } from './hostile-bytes.js'
export {
  damagedText,
  deepNode,
  describedText,
  type HostileText,
  hostileBody,
  hostileScalar,
  hostileStrings,
  hostileValue,
  hugeNode,
  mutatedDocument,
  pollutingValue,
  prototypeMemberNames,
} from './hostile-json.js'
export {
  type JsonMember,
  type JsonNode,
  literal,
  memberOf,
  objectNode,
  renderJson,
  toJsonNode,
  withMember,
  withoutMember,
} from './json-text.js'
export { named } from './named.js'
export { OutcomeTally } from './outcome-tally.js'
export {
  caseLedger,
  countHandWrittenCases,
  type PropertyRun,
  printCaseLedger,
  propertySettings,
  seedFor,
} from './property-runs.js'
export {
  buildResponse,
  type FetchCall,
  recordingFetch,
  type ScriptedAnswer,
  type ScriptedFetch,
  type ScriptedResponse,
  scriptedFetch,
} from './scripted-fetch.js'
export {
  type CaseOutcome,
  describeThrown,
  expectTypedOutcome,
  HostileCaseViolation,
  type OutcomeRules,
  secretFindings,
} from './typed-outcome.js'
export { createUdapServerIdentity, type UdapServerIdentity } from './udap-server-identity.js'
export {
  smartCapabilities,
  validOAuthErrorBody,
  validOpenIdConfiguration,
  validRegistrationResponse,
  validSmartConfiguration,
  validTokenResponse,
} from './valid-documents.js'
