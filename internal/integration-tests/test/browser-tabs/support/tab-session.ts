/**
 * The browser example of docs/guides/tokens-over-time.md ("In a browser"), run in two Chromium
 * tabs by session-two-tabs.test.ts: one session every tab of the app shares.
 */
import { type Client, indexedDbStore, type Session } from '@fhir-auth/client'

/** The session every tab shares; `signedIn` is the session the callback gave this tab, if any. */
export async function tabSession(client: Client, signedIn?: Session): Promise<Session | undefined> {
  const sessions = client.sessions({ store: indexedDbStore() })
  // After the callback, in the tab that signed in: the id is all the other tabs need.
  if (signedIn !== undefined) localStorage.setItem('session-id', await sessions.save(signedIn))
  // In every tab: one IndexedDB for the origin, so one refresh per expiry window for all tabs.
  const id = localStorage.getItem('session-id')
  return id === null ? undefined : sessions.open(id)
}
