/**
 * `@fhir-auth/test-utils`: helpers shared by fhir-auth's test suites (Node) — a logger that
 * records every call, a scanner that proves no secret reaches logs, errors or printed objects,
 * and a loopback port that refuses connections. The portable helpers have their own subpaths,
 * which import no Node module: `@fhir-auth/test-utils/fake-fetch` (the one fake `fetch`) and
 * `@fhir-auth/test-utils/failure` (the error an operation fails with).
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
export { type RefusingOrigin, refusingLoopbackOrigin } from './refusing-port.js'
export {
  compactJwsPattern,
  pemPrivateKeyPattern,
  type SecretFinding,
  SecretScanner,
} from './secret-scan.js'
