import {
  type ClientKeys,
  generateClientKeys,
  type SmartSandbox,
  type SmartSandboxOptions,
  startSmartSandbox,
} from '../../../src/index.js'
import {
  type AuthorizationInput,
  authorizationUrl,
  type PreparedAuthorization,
  prepareAuthorization,
} from './authorization.js'
import { clientAssertionType, signClientAssertion } from './client-assertion.js'
import { basicAuthorization, type JsonReply, postForm } from './http.js'

export const publicClientId = 'public-app'
export const symmetricClientId = 'symmetric-app'
export const symmetricClientSecret = 'symmetric-secret-value-0123456789'
export const rs384ClientId = 'asymmetric-rs384'
export const es384ClientId = 'asymmetric-es384'

/** A sandbox with one client of each SMART type, and the keys of the asymmetric ones. */
export interface Fixture {
  readonly sandbox: SmartSandbox
  readonly rs384Keys: ClientKeys
  readonly es384Keys: ClientKeys
}

export async function startFixture(options: SmartSandboxOptions = {}): Promise<Fixture> {
  const [rs384Keys, es384Keys] = await Promise.all([
    generateClientKeys('RS384'),
    generateClientKeys('ES384'),
  ])
  const sandbox = await startSmartSandbox({
    ...options,
    clients: [
      { client_id: publicClientId, token_endpoint_auth_method: 'none' },
      {
        client_id: symmetricClientId,
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret: symmetricClientSecret,
      },
      {
        client_id: rs384ClientId,
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [rs384Keys.publicJwk] },
      },
      {
        client_id: es384ClientId,
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [es384Keys.publicJwk] },
      },
      ...(options.clients ?? []),
    ],
  })
  return { sandbox, rs384Keys, es384Keys }
}

/** Runs a GET authorization to its code; fails the test when no code comes back. */
export async function authorizeForCode(
  sandbox: SmartSandbox,
  input: AuthorizationInput,
): Promise<{ prepared: PreparedAuthorization; code: string }> {
  const prepared = prepareAuthorization(sandbox, input)
  const result = await sandbox.authorize({ url: authorizationUrl(sandbox, prepared) })
  if (result.code === undefined) {
    throw new Error(
      `authorization failed: ${result.error ?? 'no code'} ${result.errorDescription ?? ''}`,
    )
  }
  return { prepared, code: result.code }
}

/** Client authentication for a token request: the form members and headers to add. */
export interface ClientAuthentication {
  readonly form: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string>>
}

export function publicAuthentication(clientId: string): ClientAuthentication {
  return { form: { client_id: clientId }, headers: {} }
}

export function basicAuthentication(clientId: string, secret: string): ClientAuthentication {
  return { form: {}, headers: { authorization: basicAuthorization(clientId, secret) } }
}

export function assertionAuthentication(assertion: string): ClientAuthentication {
  return {
    form: { client_assertion_type: clientAssertionType, client_assertion: assertion },
    headers: {},
  }
}

export async function freshAssertionAuthentication(
  sandbox: SmartSandbox,
  keys: ClientKeys,
  clientId: string,
): Promise<ClientAuthentication> {
  return assertionAuthentication(await signClientAssertion(keys, clientId, sandbox.endpoints.token))
}

/** Redeems a code at the token endpoint. */
export function exchangeCode(
  sandbox: SmartSandbox,
  prepared: PreparedAuthorization,
  code: string,
  authentication: ClientAuthentication,
  verifier = prepared.pkce.verifier,
): Promise<JsonReply> {
  return postForm(
    sandbox.endpoints.token,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: prepared.redirectUri,
      code_verifier: verifier,
      ...authentication.form,
    },
    authentication.headers,
  )
}

/** Redeems a refresh token at the token endpoint. */
export function refresh(
  sandbox: SmartSandbox,
  refreshToken: string,
  authentication: ClientAuthentication,
  scope?: string,
): Promise<JsonReply> {
  return postForm(
    sandbox.endpoints.token,
    {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      ...(scope === undefined ? {} : { scope }),
      ...authentication.form,
    },
    authentication.headers,
  )
}

/** Reads a Patient with a bearer token; returns the status. */
export async function readPatient(
  sandbox: SmartSandbox,
  id: string,
  accessToken: unknown,
): Promise<number> {
  const response = await fetch(`${sandbox.fhirBaseUrl}/Patient/${id}`, {
    headers: { authorization: `Bearer ${String(accessToken)}` },
  })
  await response.body?.cancel()
  return response.status
}

/** The `string` member of a reply body, failing when it is absent. */
export function stringMember(reply: JsonReply, name: string): string {
  const value = reply.body[name]
  if (typeof value !== 'string')
    throw new Error(`reply has no string ${name}: ${JSON.stringify(reply.body)}`)
  return value
}
