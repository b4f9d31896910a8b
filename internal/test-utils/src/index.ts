/**
 * `@fhir-auth/test-utils`: helpers shared by fhir-auth's test suites — a logger that records
 * every call, and a scanner that proves no secret reaches logs, errors or printed objects.
 *
 * @packageDocumentation
 */

export {
  type CapturedLevel,
  type CapturedLogEntry,
  type CapturingLogger,
  createCapturingLogger,
  safeJson,
} from './capturing-logger.js'
export {
  compactJwsPattern,
  pemPrivateKeyPattern,
  type SecretFinding,
  SecretScanner,
} from './secret-scan.js'
