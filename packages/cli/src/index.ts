/**
 * `@fhir-auth/cli`: the `fhir-auth` command-line tool (`discover`, `register`, `token`,
 * `authorize`) for SMART App Launch 2.2.0 and UDAP Security STU2. The binary is `fhir-auth`;
 * this entry point exposes `run` for programs and tests that drive it in-process.
 *
 * @packageDocumentation
 */

export { type ExitCode, exitCodeFor, exitCodes, isTrustFailure } from './exit-codes.js'
export { type CliIo, type OutputStream, processIo } from './io.js'
export { run } from './run.js'
