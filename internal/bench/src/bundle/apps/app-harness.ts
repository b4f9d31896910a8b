/**
 * What the measured browser apps get from the page they run in: a `fetch` that reaches the fake
 * EHR (passed to `Client` as its `fetch` option) and the user agent's trip to the authorization
 * endpoint. Types only, so no harness code ends up in an app's chunks.
 */
import type { FetchLike } from '@fhir-auth/client'

/** The server's side of the launch: takes the authorization URL, answers the callback URL. */
export type Authorize = (authorizationUrl: string) => Promise<string>

/** What every measured app receives. */
export interface AppHarness {
  readonly fetch: FetchLike
  readonly authorize: Authorize
}

/** Where the fake EHR lives, as every app configures it. */
export const fakeEhr = Object.freeze({
  baseUrl: 'https://ehr.example.org/fhir',
  clientId: 'bench-app',
  redirectUri: 'https://app.example.org/callback',
})
