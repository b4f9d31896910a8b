/**
 * A SMART standalone launch in the browser, as a public client (no secret: anything shipped
 * to a browser is public). PKCE protects the code instead: only this tab knows the verifier.
 *
 * `beginAuthorization` keeps the launch (state, PKCE verifier, nonce) in this tab's
 * `sessionStorage` under a key derived from `state`; `completeAuthorization` checks the callback
 * (error, state, RFC 9207 iss, code), exchanges the code, and validates the ID token with the
 * browser's WebCrypto; `session.fetch` reads FHIR with the token, which never leaves memory.
 *
 * `@fhir-auth/client` picks its WebCrypto backend in the browser by itself; a bundle of this
 * page contains none of the PKI code (pkijs, node-forge) that UDAP needs.
 */
import {
  AuthorizationError,
  Client,
  HttpError,
  type KeyValueStore,
  type Session,
  webStorageStore,
} from '@fhir-auth/client'
import { type AppConfig, loadAppConfig } from './app-config.js'
import { submitAuthorizePost } from './authorize-post.js'

/** The page's elements, looked up once. */
const view = {
  launch: element('launch', HTMLButtonElement),
  status: element('status', HTMLElement),
  patient: element('patient', HTMLElement),
  name: element('name', HTMLElement),
  user: element('user', HTMLElement),
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

/**
 * The click handler: the launch goes to this tab's `sessionStorage` (it survives the trip to
 * the server and back, other tabs do not see it), then the form POST leaves for the server.
 */
async function launch(client: Client, store: KeyValueStore): Promise<void> {
  view.launch.disabled = true
  view.status.textContent = 'Redirecting to the authorization server…'
  const { authUrl, params } = await client.beginAuthorization({ store, method: 'post' })
  submitAuthorizePost(authUrl, params ?? {})
}

/** Back from the server with `?code&state&iss` (or `?error&state`): check, exchange, show. */
async function completeLaunch(client: Client, store: KeyValueStore): Promise<void> {
  const callbackUrl = location.href
  // Take the code out of the address bar and the history before anything else happens.
  history.replaceState(null, '', location.pathname)
  view.status.textContent = 'Exchanging the code…'
  const session = await client.completeAuthorization(callbackUrl, { store })
  await show(session)
}

/**
 * Shows the launch context, who signed in (from the validated ID token) and the patient read
 * with `session.fetch` — never the token: it stays in memory, out of the DOM and out of
 * storage, where other script on the page could find it.
 */
async function show(session: Session): Promise<void> {
  const { patient, fhirUser, scopes } = session.tokens
  view.patient.textContent = patient ?? '(none)'
  view.user.textContent = fhirUser ?? '(unknown)'
  view.scope.textContent = scopes.join(' ')
  if (patient !== undefined) {
    const response = await session.fetch(`Patient/${encodeURIComponent(patient)}`, {
      headers: { accept: 'application/fhir+json' },
    })
    if (!response.ok) throw new Error(`reading the patient answered ${response.status}`)
    view.name.textContent = describeName(await response.json())
  }
  view.status.textContent = 'Signed in.'
}

/** "Given Family" from the first `HumanName`, or its `text`. */
function describeName(resource: unknown): string {
  const names = (resource as { name?: unknown } | null)?.name
  const first = (Array.isArray(names) ? names[0] : undefined) as
    | { text?: unknown; given?: unknown; family?: unknown }
    | undefined
  if (typeof first?.text === 'string') return first.text
  const given = Array.isArray(first?.given)
    ? first.given.filter((part): part is string => typeof part === 'string')
    : []
  const family = typeof first?.family === 'string' ? [first.family] : []
  return [...given, ...family].join(' ') || '(no name)'
}

async function main(): Promise<void> {
  const client = createClient(await loadAppConfig(new URL('config.json', location.href)))
  const store = webStorageStore(sessionStorage)
  view.launch.addEventListener('click', () => {
    launch(client, store).catch(showError)
  })
  const query = new URLSearchParams(location.search)
  if (query.has('state') || query.has('code') || query.has('error')) {
    await completeLaunch(client, store)
  } else {
    view.status.textContent = 'Ready.'
  }
  view.launch.disabled = false
}

function showError(error: unknown): void {
  const text =
    // A callback this tab did not start (forged, replayed, or older than 10 minutes).
    error instanceof AuthorizationError && error.error === 'state_mismatch'
      ? 'the response does not match a launch started in this tab; launch again'
      : // Part of the page's code could not be loaded: offline, or a new version was deployed.
        error instanceof HttpError && error.reason === 'network' && error.url === ''
        ? `part of this page could not be loaded (${error.message}); check the connection or reload`
        : error instanceof Error
          ? `${error.name}: ${error.message}`
          : String(error)
  view.status.textContent = `Launch failed: ${text}`
  view.launch.disabled = false
}

main().catch(showError)
