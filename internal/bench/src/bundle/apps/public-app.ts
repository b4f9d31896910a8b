/**
 * The public SMART browser app the bundle figures measure (issue 16): `beginAuthorization` (the
 * launch kept in `sessionStorage`) → `completeAuthorization` (callback checks, code exchange, and
 * ID token validation when the scopes ask for `openid`) → `session.fetch`. Bundled with esbuild
 * and run in Chromium against the fake EHR, once with `openid fhirUser` (the usual launch) and
 * once without.
 */
import { Client, webStorageStore } from '@fhir-auth/client'
import { type AppHarness, fakeEhr } from './app-harness.js'

/** What the run saw, for the harness to check that every flow really happened. */
export interface PublicAppRun {
  readonly patientStatus: number
  /** The validated ID token's `sub`; undefined when no ID token was asked for. */
  readonly subject: string | undefined
}

export async function runPublicApp(
  harness: AppHarness,
  scopes: readonly string[],
): Promise<PublicAppRun> {
  const store = webStorageStore(sessionStorage)
  const client = new Client({ ...fakeEhr, scopes }, { fetch: harness.fetch })
  const { authUrl } = await client.beginAuthorization({ store })
  const callbackUrl = await harness.authorize(authUrl)
  const session = await client.completeAuthorization(callbackUrl, { store })
  const response = await session.fetch('Patient/123')
  const subject = session.tokens.idTokenClaims?.sub
  return {
    patientStatus: response.status,
    subject: typeof subject === 'string' ? subject : undefined,
  }
}
