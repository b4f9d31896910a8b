import { Client } from '@fhir-auth/client'

const client = new Client({
  baseUrl: 'https://ehr.example.org/fhir',
  clientId: 'app',
  redirectUri: 'https://app.example.org/cb',
  scopes: ['openid'],
})
export async function launch() {
  return client.authorizationUrl({ method: 'post' })
}
export async function exchange(code: string, codeVerifier: string) {
  return client.requestAccessToken({ code, codeVerifier })
}
export async function refresh(refreshToken: string) {
  return client.refreshToken({ refreshToken })
}
