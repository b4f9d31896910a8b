import type { SmartSandbox } from '../../../src/index.js'
import { sandboxDefaultRedirectUri } from '../../../src/index.js'
import { createPkcePair, createState, type PkcePair } from './pkce.js'

/** Inputs of an authorization request; anything left out gets a valid SMART default. */
export interface AuthorizationInput {
  readonly clientId: string
  readonly scope: string
  readonly redirectUri?: string
  readonly launch?: string
  /** `null` leaves `aud` out. */
  readonly aud?: string | null
  /** `false` leaves PKCE out. */
  readonly pkce?: boolean
}

/** The parameters of a SMART authorization request plus the secrets the client keeps. */
export interface PreparedAuthorization {
  readonly params: Record<string, string>
  readonly pkce: PkcePair
  readonly state: string
  readonly redirectUri: string
}

export function prepareAuthorization(
  sandbox: SmartSandbox,
  input: AuthorizationInput,
): PreparedAuthorization {
  const pkce = createPkcePair()
  const state = createState()
  const redirectUri = input.redirectUri ?? sandboxDefaultRedirectUri
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: input.clientId,
    redirect_uri: redirectUri,
    scope: input.scope,
    state,
  }
  if (input.aud !== null) params.aud = input.aud ?? sandbox.fhirBaseUrl
  if (input.pkce !== false) {
    params.code_challenge = pkce.challenge
    params.code_challenge_method = 'S256'
  }
  if (input.launch !== undefined) params.launch = input.launch
  return { params, pkce, state, redirectUri }
}

/** The GET form of a prepared authorization. */
export function authorizationUrl(sandbox: SmartSandbox, prepared: PreparedAuthorization): string {
  const url = new URL(sandbox.endpoints.authorization)
  for (const [name, value] of Object.entries(prepared.params)) url.searchParams.set(name, value)
  return url.href
}
