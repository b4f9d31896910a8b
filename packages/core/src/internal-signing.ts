/**
 * `@fhir-auth/core/internal/signing`: the checks that code making signed JWTs shares (client
 * assertions, software statements, UDAP authentication tokens) — the signer, the clock, the
 * backend's contract version. Not a public API: it may change in any release.
 *
 * Also in `@fhir-auth/core/internal/on-demand`, which registration needs besides. Kept apart so
 * that an asymmetric client, which loads these when it first signs, loads no registration code:
 * a module that imports an entry reaches every file that entry re-exports
 * (docs/adr/0012-browser-bytes-by-load-time.md).
 *
 * @internal
 * @packageDocumentation
 */

export { checkBackendVersion } from './checks/backend-version.js'
export { currentTime, requireClock, requireDate } from './checks/clock.js'
export { requireSigner } from './checks/signer.js'

// Whatever reaches these checks signs next (a SMART signer checks the backend, then imports the
// key and signs): reaching `core/signing` too puts both entries' files in one chunk instead of two
// (ADR 0012: files are grouped by the set of entries that reach them). No names are added.
// package.json lists both files under `sideEffects`, so bundlers keep this bare import.
import './signing.js'
