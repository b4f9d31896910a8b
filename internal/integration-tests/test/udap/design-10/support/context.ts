/**
 * Shared setup of the DESIGN §10 acceptance probe: a UDAP sandbox with the authorization code,
 * clients built only through `@fhir-auth/client`'s public names, trust inputs, a conformant
 * authorization-code registration, and the sandbox's headless user agent to reach a callback.
 */
import {
  type BeginAuthorizationResult,
  Client,
  type ClientConfigInput,
  type ClientOptions,
  silentLogger,
} from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox, type UdapTrust } from '@fhir-auth/sandbox'
import type { KeyType } from '@fhir-auth/test-pki/issuer'
import { afterAll, beforeAll } from 'vitest'

/** Registered, never contacted: the user agent stops at it. */
export const redirectUri = 'https://app.example.test/cb'

/**
 * Starts a sandbox for the authorization code and refresh before the file's tests and closes it
 * after them; read `.sandbox` inside a test or hook (it is set once `beforeAll` ran).
 */
export function useCodeSandbox(): { readonly sandbox: UdapSandbox } {
  let sandbox: UdapSandbox | undefined
  beforeAll(async () => {
    sandbox = await startUdapSandbox({ grantTypes: ['authorization_code', 'refresh_token'] })
  }, 60_000)
  afterAll(async () => {
    await sandbox?.close()
  })
  return {
    get sandbox(): UdapSandbox {
      if (sandbox === undefined) throw new Error('the sandbox starts in beforeAll')
      return sandbox
    },
  }
}

/** Trust inputs in the shape DESIGN §2 gives them (PEM text). */
export interface Trust {
  readonly trustedAnchors: readonly string[]
  readonly crls: readonly string[]
}

export function trustOf(trust: UdapTrust): Trust {
  return {
    trustedAnchors: trust.anchors.map((anchor) => anchor.pem),
    crls: trust.crls.map((crl) => crl.pem),
  }
}

/** Authorization-code registration metadata (DESIGN §10), without `response_types`. */
export function codeMetadata(
  scope: string,
  overrides: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  return {
    client_name: 'design-10 probe app',
    contacts: ['mailto:probe@example.test'],
    grant_types: ['authorization_code', 'refresh_token'],
    redirect_uris: [redirectUri],
    logo_uri: 'https://app.example.test/logo.png',
    scope,
    ...overrides,
  }
}

let serial = 0

/** A signing identity issued by the sandbox's CA for a fresh client URI. */
export async function issueIdentity(
  sandbox: UdapSandbox,
  keyType: KeyType = 'rsa2048',
): Promise<{ clientUri: string; privateKey: string; certificateChain: Uint8Array[] }> {
  serial += 1
  const name = `probe10-${process.pid}-${serial}-${Date.now()}`
  const clientUri = `https://app.example.test/${name}`
  const issued = await sandbox.certificateAuthority.issue({
    commonName: name,
    sanUris: [clientUri],
    keyType,
  })
  return { clientUri, privateKey: issued.privateKeyPem, certificateChain: [...issued.chainDer] }
}

/** A UDAP `Client` on the sandbox with the given identity, options and config overrides. */
export function udapClient(
  sandbox: UdapSandbox,
  identity: { privateKey: string; certificateChain: readonly Uint8Array[] },
  options: Record<string, unknown> = {},
  config: Partial<ClientConfigInput> = {},
): Client {
  return new Client(
    {
      baseUrl: sandbox.fhirBaseUrl,
      allowInsecureLocalhost: true,
      redirectUri,
      scopes: ['openid', 'user/*.rs', 'offline_access'],
      privateKey: identity.privateKey,
      certificateChain: [...identity.certificateChain],
      ...config,
    },
    { protocol: 'udap', logger: silentLogger, ...options } as ClientOptions,
  )
}

/** A client registered for the authorization code at `sandbox`, with its `clientId` configured. */
export async function registeredClient(
  sandbox: UdapSandbox,
  options: {
    readonly flow?: string
    readonly scopes?: readonly string[]
    readonly registeredScope?: string
    readonly grantTypes?: readonly string[]
    readonly keyType?: KeyType
    readonly clientOptions?: Record<string, unknown>
  } = {},
): Promise<{
  client: Client
  clientId: string
  clientUri: string
  identity: Awaited<ReturnType<typeof issueIdentity>>
}> {
  const identity = await issueIdentity(sandbox, options.keyType)
  const scopes = options.scopes ?? ['openid', 'user/*.rs', 'offline_access']
  const registrar = udapClient(
    sandbox,
    identity,
    { ...(options.flow === undefined ? {} : { flow: options.flow }), ...options.clientOptions },
    { scopes },
  )
  const registration = await registrar.registerClient(
    codeMetadata(
      options.registeredScope ?? scopes.join(' '),
      options.grantTypes === undefined ? {} : { grant_types: options.grantTypes },
    ),
    { clientUri: identity.clientUri, ...trustOf(sandbox.trust) },
  )
  const clientId = String(registration.client_id)
  const client = udapClient(
    sandbox,
    identity,
    { ...(options.flow === undefined ? {} : { flow: options.flow }), ...options.clientOptions },
    { scopes, clientId },
  )
  return { client, clientId, clientUri: identity.clientUri, identity }
}

/** Drives the sandbox's user agent through the request; returns the callback URL. */
export async function callbackFor(
  sandbox: UdapSandbox,
  request: Pick<BeginAuthorizationResult, 'authUrl' | 'params'>,
): Promise<string> {
  const result = await sandbox.authorize(
    request.params === undefined
      ? { url: request.authUrl }
      : { endpoint: request.authUrl, params: request.params },
  )
  if (result.redirectUrl === undefined) {
    throw new Error(`no redirect: ${result.error} ${result.errorDescription}`)
  }
  return result.redirectUrl.href
}

/** Awaits `promise` and returns what it rejected with (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof promise === 'function' ? promise() : promise)
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection, got a value')
}
