/**
 * Core's error class for this backend's modules, taken through one module that re-exports from
 * both core entries this backend uses, on purpose (ADR 0012). A bundler that splits code per
 * dynamic import groups files by the set of chunks that reach them, and a chunk reaches every
 * file re-exported by a module it imports. Each chunk of this backend reaches this module, so each
 * reaches core's main and internal entries, as every chunk of the client does: core's files then
 * stay in one shared chunk, instead of three (error classes and base64; the main entry; the
 * internal entry) that every browser app would fetch up front.
 *
 * @internal
 */

export { CryptoError, type CryptoErrorReason } from '@fhir-auth/core'
export { lazy } from '@fhir-auth/core/internal'
