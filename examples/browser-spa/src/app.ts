/**
 * A SMART standalone launch in the browser, as a public client (no secret: anything shipped
 * to a browser is public). PKCE protects the code instead: only this tab knows the verifier.
 *
 * `@fhir-auth/client` picks its WebCrypto backend in the browser by itself; a bundle of this
 * page contains none of the PKI code (pkijs, node-forge) that UDAP needs.
 */
import { Client, type TokenResponse } from '@fhir-auth/client'
import { type AppConfig, loadAppConfig } from './app-config.js'
import { submitAuthorizePost } from './authorize-post.js'
import { savePendingAuthorization, takePendingAuthorization } from './pending-authorization.js'

/** The page's elements, looked up once. */
const view = {
  launch: element('launch', HTMLButtonElement),
  status: element('status', HTMLElement),
  patient: element('patient', HTMLElement),
  scope: element('scope', HTMLElement),
}

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id)
  if (!(found instanceof type)) throw new Error(`the page has no #${id}`)
  return found
}

function createClient(config: AppConfig): Client {
  return new Client({
    baseUrl: config.fhirBaseUrl,
    clientId: config.clientId,
    redirectUri: config.redirectUri,
    scopes: [...config.scopes],
    allowInsecureLocalhost: config.allowInsecureLocalhost,
  })
}

/** The click handler: prepare the request, remember state + verifier, leave for the server. */
async function launch(client: Client): Promise<void> {
  view.launch.disabled = true
  view.status.textContent = 'Redirecting to the authorization server…'
  const { authUrl, params, state, codeVerifier } = await client.authorizationUrl({ method: 'post' })
  savePendingAuthorization({ state, codeVerifier })
  submitAuthorizePost(authUrl, params ?? {})
}

/** Back from the server with `?code&state` (or `?error&state`): check, exchange, show. */
async function completeLaunch(client: Client, query: URLSearchParams): Promise<void> {
  // Take the code out of the address bar and the history before anything else happens.
  history.replaceState(null, '', location.pathname)
  const pending = takePendingAuthorization()
  // `state` proves this tab started the request: a forged callback (CSRF) fails here.
  if (pending === undefined || query.get('state') !== pending.state) {
    throw new Error('the response does not match a launch started in this tab; launch again')
  }
  const error = query.get('error')
  if (error !== null) throw new Error(`the authorization server answered ${error}`)
  const code = query.get('code')
  if (code === null) throw new Error('the response has no authorization code')
  view.status.textContent = 'Exchanging the code…'
  const token = await client.requestAccessToken({ code, codeVerifier: pending.codeVerifier })
  show(token)
}

/**
 * Shows the launch context, never the token: keep it in memory for FHIR calls, out of the DOM
 * and out of storage, where other script on the page could find it.
 */
function show(token: TokenResponse): void {
  view.patient.textContent = typeof token.patient === 'string' ? token.patient : '(none)'
  view.scope.textContent = typeof token.scope === 'string' ? token.scope : ''
  view.status.textContent = 'Signed in.'
}

async function main(): Promise<void> {
  const client = createClient(await loadAppConfig(new URL('config.json', location.href)))
  view.launch.addEventListener('click', () => {
    launch(client).catch(showError)
  })
  const query = new URLSearchParams(location.search)
  if (query.has('state') || query.has('code') || query.has('error')) {
    await completeLaunch(client, query)
  } else {
    view.status.textContent = 'Ready.'
  }
  view.launch.disabled = false
}

function showError(error: unknown): void {
  view.status.textContent = `Launch failed: ${error instanceof Error ? error.message : String(error)}`
  view.launch.disabled = false
}

main().catch(showError)
