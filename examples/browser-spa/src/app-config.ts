/** What the page needs to know about its server and its own registration. */
export interface AppConfig {
  /** The FHIR server's base URL (SMART discovery starts there). */
  readonly fhirBaseUrl: string
  /** The public client id the authorization server assigned to this app. */
  readonly clientId: string
  /** This page's URL exactly as registered; the server sends the user back here. */
  readonly redirectUri: string
  readonly scopes: readonly string[]
  /** Permit plain HTTP to 127.0.0.1 / localhost: for a local test server only. */
  readonly allowInsecureLocalhost: boolean
}

/**
 * Reads the settings from `config.json` next to the page, so one build serves every
 * environment: deploy the same `app.js` with a different `config.json`.
 *
 * @throws Error naming the field that is missing or has the wrong type.
 */
export async function loadAppConfig(url: URL): Promise<AppConfig> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) })
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}`)
  const json: unknown = await response.json()
  const value = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>
  const text = (name: string): string => {
    const field = value[name]
    if (typeof field !== 'string' || field === '') {
      throw new Error(`config.json: ${name} must be a non-empty string`)
    }
    return field
  }
  const scopes = value.scopes
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string')) {
    throw new Error('config.json: scopes must be an array of strings')
  }
  return {
    fhirBaseUrl: text('fhirBaseUrl'),
    clientId: text('clientId'),
    redirectUri: text('redirectUri'),
    scopes,
    allowInsecureLocalhost: value.allowInsecureLocalhost === true,
  }
}
