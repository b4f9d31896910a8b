/**
 * Binds a launch to the browser that began it (RFC 6749 §10.12, login CSRF): the launch cookie
 * lists the `state` of each launch this browser began and that has not come back yet, so a
 * callback is completed only in the browser whose cookie names its `state`. A few launches at a
 * time (tabs, a second EHR) are kept; the oldest is dropped first.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12 RFC 6749 §10.12 (CSRF)
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.7 RFC 9700 §4.7 (CSRF protection)
 */

/** The launches one browser may have waiting at once (tabs, EHRs). */
export const maximumPendingLaunches = 4

/** A `state` as the client makes it (base64url); anything else in the cookie is ignored. */
const statePattern = /^[A-Za-z0-9_-]{16,128}$/

/** `state`s are joined with `.`, which base64url never contains. */
const separator = '.'

/** The `state`s a launch cookie value names (none for a missing or malformed value). */
export function pendingStates(cookieValue: string | undefined): string[] {
  if (cookieValue === undefined) return []
  const states = cookieValue.split(separator)
  if (states.length > maximumPendingLaunches || !states.every((state) => statePattern.test(state)))
    return []
  return states
}

/** The launch cookie value after `state` began: it, and the newest of the others. */
export function withLaunch(states: readonly string[], state: string): string {
  const kept = states.filter((pending) => pending !== state)
  return [...kept.slice(-(maximumPendingLaunches - 1)), state].join(separator)
}

/**
 * The launch cookie value once `state` came back (`undefined` when no launch is left waiting:
 * clear the cookie then).
 */
export function withoutLaunch(states: readonly string[], state: string): string | undefined {
  const kept = states.filter((pending) => pending !== state)
  return kept.length === 0 ? undefined : kept.join(separator)
}

/**
 * The callback's `state` when this browser began that launch; `undefined` otherwise (no launch
 * cookie, another browser's cookie, a `state` missing, repeated or not one the client made).
 */
export function boundState(query: URLSearchParams, states: readonly string[]): string | undefined {
  const given = query.getAll('state')
  if (given.length !== 1) return undefined
  const [state] = given
  return state !== undefined && states.includes(state) ? state : undefined
}
