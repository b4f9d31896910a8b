/**
 * The tests' side of the global setup's test driver (sandboxes.global-setup.ts), with the
 * runtime's own `fetch`: plays the user at a sandbox, creates EHR launches, reads and forgets
 * the requests the sandboxes received. Portable: no `node:` module.
 */
import { Client, type ClientOptions } from '@fhir-auth/client'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { inject } from 'vitest'

export type Ehr = 'ehrA' | 'ehrB'

/** A request a sandbox received, as much of it as the tests read. */
export interface SandboxRequest {
  readonly method: string
  readonly path: string
}

async function call(path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${inject('driverOrigin')}${path}`, { method: 'POST', ...init })
  if (!response.ok) throw new Error(`test driver ${path}: ${await response.text()}`)
  return response.json()
}

/** Plays the user at `ehr` through `authUrl`; the URL the sandbox redirected to (or its error). */
export async function authorizeAt(
  authUrl: string,
  options: { readonly ehr?: Ehr; readonly decision?: 'approve' | 'deny' } = {},
): Promise<string> {
  const query = `ehr=${options.ehr ?? 'ehrA'}&decision=${options.decision ?? 'approve'}`
  const result = (await call(`/authorize?${query}`, { body: authUrl })) as {
    redirectUrl?: string
    error?: string
  }
  if (result.redirectUrl === undefined) throw new Error(`authorization failed: ${result.error}`)
  return result.redirectUrl
}

/** A fresh EHR `launch` value at `ehr` (patient `patient-1`). */
export async function createLaunch(ehr: Ehr = 'ehrA'): Promise<string> {
  return ((await call(`/launch?ehr=${ehr}`)) as { launch: string }).launch
}

/** The requests each sandbox received since the last {@link clearRequests}. */
export async function sandboxRequests(): Promise<Record<Ehr, SandboxRequest[]>> {
  return (await call('/requests', { method: 'GET' })) as Record<Ehr, SandboxRequest[]>
}

/** Forgets the requests both sandboxes received. */
export async function clearRequests(): Promise<void> {
  await call('/clear')
}

/** The app's redirect URI (the sandbox's default; the sandbox never contacts it). */
export const redirectUri = 'https://app.example/callback'

/** The scopes the app asks for: launch context, an ID token and a refresh token. */
export const appScopes = [
  'launch',
  'launch/patient',
  'patient/*.rs',
  'openid',
  'fhirUser',
  'offline_access',
]

/**
 * Vitest resolves `@fhir-auth/client`'s `#default-crypto` with the `node` condition even in the
 * edge project, where `node:crypto` is refused; an edge bundler picks the WebCrypto backend by
 * its conditions. Tests in the edge runtime name that backend.
 */
const runtimeCrypto = 'EdgeRuntime' in globalThis ? { crypto: webCryptoBackend } : {}

/** The web app's confidential client at `ehr`. */
export function webClient(ehr: Ehr = 'ehrA', options: ClientOptions = {}): Client {
  return new Client(
    {
      baseUrl: inject(ehr),
      clientId: inject('webClientId'),
      clientSecret: inject('webClientSecret'),
      redirectUri,
      scopes: appScopes,
      allowInsecureLocalhost: true,
    },
    { clientType: 'confidential_symmetric', ...runtimeCrypto, ...options },
  )
}
