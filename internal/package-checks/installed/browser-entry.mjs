/**
 * A browser app's use of `@fhir-auth/client`, bundled by scripts/check-packages.mjs with esbuild
 * (`platform: 'browser'`) from the scratch project where the packed tarballs were installed.
 * It reaches every SMART operation, including a signed client assertion, so the bundle holds the
 * whole SMART path plus whatever the `#default-crypto` import pulls in outside Node.
 */
import { Client } from '@fhir-auth/client'

const client = new Client(
  {
    baseUrl: 'https://ehr.example.org/fhir',
    clientId: 'browser-app',
    redirectUri: 'https://app.example.org/callback',
    scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser'],
  },
  { clientType: 'public' },
)

export function launch() {
  return client.authorizationUrl({ method: 'get' })
}

export function exchange(code, codeVerifier) {
  return client.requestAccessToken({ code, codeVerifier })
}

export function refresh(refreshToken) {
  return client.refreshToken({ refreshToken })
}

export function backendToken() {
  return client.requestBackendToken()
}
