/** What the page must remember across the trip to the authorization server and back. */
export interface PendingAuthorization {
  readonly state: string
  readonly codeVerifier: string
}

/** The `sessionStorage` key under which the pending authorization waits. */
export const pendingAuthorizationKey = 'smart-pending-authorization'

/**
 * Remembers `state` and the PKCE verifier before the page navigates away.
 *
 * `sessionStorage`, not `localStorage`: it belongs to this tab only (two tabs launching at once
 * do not overwrite each other), it survives the navigation to the server and back, and it is
 * gone when the tab closes. Any script on the origin can read it, which is acceptable for
 * these values: the verifier is worthless without the code, and it is deleted on return.
 */
export function savePendingAuthorization(pending: PendingAuthorization): void {
  sessionStorage.setItem(pendingAuthorizationKey, JSON.stringify(pending))
}

/** Returns the pending authorization and deletes it, so a callback can be used only once. */
export function takePendingAuthorization(): PendingAuthorization | undefined {
  const stored = sessionStorage.getItem(pendingAuthorizationKey)
  sessionStorage.removeItem(pendingAuthorizationKey)
  if (stored === null) return undefined
  try {
    const value = JSON.parse(stored) as Partial<PendingAuthorization>
    return typeof value.state === 'string' && typeof value.codeVerifier === 'string'
      ? { state: value.state, codeVerifier: value.codeVerifier }
      : undefined
  } catch {
    return undefined
  }
}
