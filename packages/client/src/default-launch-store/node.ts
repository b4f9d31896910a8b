import { type KeyValueStore, memoryStore } from '@fhir-auth/core/essentials'

let processStore: KeyValueStore | undefined

/**
 * Where a launch is kept on Node when `beginAuthorization` is given no store: one `memoryStore`
 * for the whole process (ADR 0008 makes it the default), made on first use. A callback handled
 * by another `Client` of the process — a server that builds one per request — finds its launch.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/tokens-over-time.md
 */
export function defaultLaunchStore(): KeyValueStore | undefined {
  processStore ??= memoryStore()
  return processStore
}
