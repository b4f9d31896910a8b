import { Client, memoryStore, type Session } from '@fhir-auth/client'

export const client = new Client({
  baseUrl: 'https://ehr.example.org/fhir',
  clientId: 'my-app',
  redirectUri: 'https://app.example.org/callback',
  scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access'],
})
// Launches wait here, keyed by state: webStorageStore(sessionStorage) in a browser,
// redisStore(redis) from @fhir-auth/store-redis for several processes.
export const store = memoryStore()

/** 1. Send the user to the URL this returns. */
export async function signIn(): Promise<string> {
  const { authUrl } = await client.beginAuthorization({ store })
  return authUrl
}

/** 2. On the redirect URI: the callback checked, the code exchanged, the ID token validated. */
export async function onCallback(callbackUrl: string): Promise<Session> {
  return client.completeAuthorization(callbackUrl, { store })
}

/** 3. FHIR with the token, refreshed first when it is about to expire. */
export async function readPatient(session: Session): Promise<Response> {
  const patient: string | undefined = session.tokens.patient
  return session.fetch(`Patient/${patient}`)
}
