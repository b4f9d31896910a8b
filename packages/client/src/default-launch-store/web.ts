import type { KeyValueStore } from '@fhir-auth/core/essentials'

/**
 * Browsers and other runtimes have no default launch store: a page's memory does not survive the
 * redirect to the authorization server, so a launch kept there could never be finished. Apps give
 * `webStorageStore(sessionStorage)` (or keep `codeVerifier` themselves), and their bundles carry
 * no memory store they cannot use.
 */
export function defaultLaunchStore(): KeyValueStore | undefined {
  return undefined
}
