/// <reference path="./oidc-provider.d.ts" />
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ConfigurationError } from '@fhir-auth/core'
import type { Provider } from 'oidc-provider'
import { runAuthorization } from '../http/headless-user-agent.js'
import { type LoopbackServer, startLoopbackServer } from '../http/loopback-server.js'
import { RequestLog } from '../http/recorded-request.js'
import { nonEmptyText, nonNegativeInteger, positiveInteger } from '../option-checks.js'
import { type BasicAuthDecoding, SecretStandIns } from './basic-credentials.js'
import { ClientScopeRegistry } from './client-scopes.js'
import { buildSmartConfiguration, type DiscoveryOverride } from './discovery-document.js'
import { type IdTokenVariant, KeyRotations } from './id-token-variants.js'
import { type LaunchContext, LaunchRegistry, type LaunchRequest } from './launch-context.js'
import { loadOidcProvider } from './load-provider.js'
import { SandboxStore } from './memory-adapter.js'
import type { SmartSandbox, SmartSandboxEndpoints, SmartSandboxOptions } from './options.js'
import { buildProviderConfiguration, providerRoutes } from './provider-configuration.js'
import { type SandboxClient, toClientMetadata } from './sandbox-client.js'
import { providerSigningKey } from './signing-key.js'
import { createSmartFront, smartStylePath } from './smart-front.js'
import { splitScopes } from './smart-scopes.js'
import type { TokenEndpointHooks } from './token-endpoint-hooks.js'
import { launchContextMiddleware } from './token-response-context.js'
import { type SandboxVendor, sandboxVendors, vendorBehaviour } from './vendor-modes.js'

const defaultUser = { id: 'practitioner-1', fhirUser: 'Practitioner/practitioner-1' }

/**
 * Starts a strict SMART App Launch 2.2.0 authorization server on `127.0.0.1` (random port):
 * panva's oidc-provider in-process behind a `node:http` front that adds SMART discovery,
 * launch context, an auto-approving user and a protected `Patient` read.
 *
 * FHIR base `${origin}/fhir` (or the `vendor` mode's path); discovery at
 * `${fhirBaseUrl}/.well-known/smart-configuration`;
 * provider endpoints `/auth`, `/token`, `/reg`, `/jwks`, `/token/introspection`,
 * `/token/revocation`. See the package README for the rules it enforces.
 *
 * @example
 * ```ts
 * const sandbox = await startSmartSandbox({
 *   clients: [{ client_id: 'app', token_endpoint_auth_method: 'none' }],
 * })
 * try {
 *   const { code } = await sandbox.authorize({ url: authorizationUrlFromTheLibrary })
 * } finally {
 *   await sandbox.close()
 * }
 * ```
 * @throws {ConfigurationError} an option has the wrong type or a configured client is
 *   rejected (`invalidAttribute` names the option).
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/
 */
export async function startSmartSandbox(options: SmartSandboxOptions = {}): Promise<SmartSandbox> {
  const settings = readOptions(options)
  const [oidcProvider, signingKey] = await Promise.all([loadOidcProvider(), providerSigningKey()])

  // The port (and so the issuer) is known only once the server listens; requests that arrive
  // before the provider is ready get 503.
  let handle = (_request: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(503).end()
  }
  const server = await startLoopbackServer((request, response) => handle(request, response))
  try {
    const origin = server.origin
    const vendor = vendorBehaviour(settings.vendor)
    const fhirBaseUrl = `${origin}${vendor.fhirPath}`
    const endpoints: SmartSandboxEndpoints = {
      authorization: `${origin}${providerRoutes.authorization}`,
      token: `${origin}${providerRoutes.token}`,
      registration: `${origin}${providerRoutes.registration}`,
      jwks: `${origin}${providerRoutes.jwks}`,
      introspection: `${origin}${providerRoutes.introspection}`,
      revocation: `${origin}${providerRoutes.revocation}`,
      discovery: `${fhirBaseUrl}/.well-known/smart-configuration`,
    }
    const store = new SandboxStore()
    const launches = new LaunchRegistry()
    const launchContexts = new Map<string, LaunchContext>()
    const clientScopes = new ClientScopeRegistry()
    const secretStandIns = new SecretStandIns()
    const requestLog = new RequestLog(settings.requestLogLimit)
    const provider = new oidcProvider.Provider(
      origin,
      buildProviderConfiguration({
        errors: oidcProvider.errors,
        fhirBaseUrl,
        tokenEndpoint: endpoints.token,
        store,
        signingKey,
        cookieKey: randomBytes(32).toString('base64url'),
        initialAccessToken: settings.initialAccessToken,
        clientAssertionAlgorithms: settings.clientAssertionAlgorithms,
        accessTokenLifetimeSeconds: settings.accessTokenLifetimeSeconds,
        backendAccessTokenLifetimeSeconds: settings.backendAccessTokenLifetimeSeconds,
        account: {
          id: settings.userId,
          fhirUser: new URL(settings.fhirUser, `${fhirBaseUrl}/`).href,
        },
        launches,
        launchContexts,
        clientScopes,
      }),
    )
    provider.use(clientScopes.registrationMiddleware())
    provider.use(
      launchContextMiddleware({ launchContexts, smartStyleUrl: `${origin}${smartStylePath}` }),
    )
    provider.on('server_error', (_context, error) => {
      console.error('SMART sandbox: oidc-provider server_error', error)
    })

    let discoveryOverride = settings.discoveryOverride
    let idTokenVariant: IdTokenVariant | undefined
    let tokenEndpointHooks: TokenEndpointHooks | undefined
    const rotations = new KeyRotations()
    const clientSecret = (clientId: string) => {
      const secret = store.find('Client', clientId)?.client_secret
      return typeof secret === 'string' ? secret : undefined
    }
    handle = createSmartFront({
      origin,
      provider,
      providerCallback: provider.callback(),
      discoveryDocument: buildSmartConfiguration(
        { issuer: origin, ...endpoints },
        settings.clientAssertionAlgorithms,
        settings.scopeVersions,
      ),
      // A test's own override replaces the vendor mode's.
      discoveryOverride: () => discoveryOverride ?? vendor.discovery,
      requestLog,
      clientScopes,
      fhirBaseUrl,
      basicAuthDecoding: settings.basicAuthDecoding,
      secretStandIns,
      idTokenRewrite: () =>
        idTokenVariant === undefined
          ? undefined
          : { variant: idTokenVariant, providerKey: signingKey, clientSecret, rotations },
      extraPublicKeys: () => rotations.published(),
      tokenEndpointHooks: () => narrowingGrants(tokenEndpointHooks, settings.narrowGrant),
      vendor,
      interaction: {
        provider,
        accountId: settings.userId,
        launches,
        launchContexts,
        standalonePatient: settings.standalonePatient,
      },
    })

    const addClient = (client: SandboxClient) =>
      registerClient(provider, store, clientScopes, secretStandIns, client)
    for (const client of settings.clients) await addClient(client)

    let closing: Promise<void> | undefined
    return {
      origin,
      issuer: origin,
      fhirBaseUrl,
      vendor: settings.vendor,
      endpoints,
      initialAccessToken: settings.initialAccessToken,
      get requests() {
        return requestLog.entries()
      },
      clearRequests: () => requestLog.clear(),
      addClient,
      createLaunch: (request: LaunchRequest) => createLaunch(launches, request),
      authorize: (request, authorizeOptions) => runAuthorization(origin, request, authorizeOptions),
      setDiscoveryOverride: (override: DiscoveryOverride | undefined) => {
        discoveryOverride = override
      },
      setIdTokenVariant: (variant: IdTokenVariant | undefined) => {
        if (variant === 'rotated-key') rotations.rotate()
        idTokenVariant = variant
      },
      setTokenEndpointHooks: (hooks: TokenEndpointHooks | undefined) => {
        tokenEndpointHooks = hooks
      },
      close: () => {
        closing ??= closeAll(server, () => {
          store.clear()
          launches.clear()
          launchContexts.clear()
          clientScopes.clear()
          requestLog.clear()
        })
        return closing
      },
    }
  } catch (error) {
    await server.close()
    throw error
  }
}

async function closeAll(server: LoopbackServer, clearState: () => void): Promise<void> {
  await server.close()
  clearState()
}

interface SandboxSettings {
  readonly clients: readonly SandboxClient[]
  readonly discoveryOverride: DiscoveryOverride | undefined
  readonly initialAccessToken: string
  readonly userId: string
  readonly fhirUser: string
  readonly standalonePatient: string
  readonly accessTokenLifetimeSeconds: number
  readonly backendAccessTokenLifetimeSeconds: number
  readonly clientAssertionAlgorithms: readonly string[]
  readonly requestLogLimit: number
  readonly basicAuthDecoding: BasicAuthDecoding
  readonly scopeVersions: readonly ('v1' | 'v2')[]
  readonly narrowGrant: SmartSandboxOptions['narrowGrant']
  readonly vendor: SandboxVendor | undefined
}

function readOptions(options: SmartSandboxOptions): SandboxSettings {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError({ invalidAttribute: 'options', invalidValue: options })
  }
  if (options.clients !== undefined && !Array.isArray(options.clients)) {
    throw new ConfigurationError({
      invalidAttribute: 'clients',
      invalidValue: options.clients,
      message: 'clients must be an array of client metadata objects',
    })
  }
  const discoveryOverride: DiscoveryOverride = {
    ...(options.discovery === undefined ? {} : { document: options.discovery }),
    ...(options.discoveryResponse === undefined ? {} : { response: options.discoveryResponse }),
  }
  return {
    clients: options.clients ?? [],
    discoveryOverride:
      options.discovery === undefined && options.discoveryResponse === undefined
        ? undefined
        : discoveryOverride,
    initialAccessToken:
      nonEmptyText(options.initialAccessToken, 'initialAccessToken') ??
      randomBytes(32).toString('base64url'),
    userId: nonEmptyText(options.user?.id, 'user.id') ?? defaultUser.id,
    fhirUser: nonEmptyText(options.user?.fhirUser, 'user.fhirUser') ?? defaultUser.fhirUser,
    standalonePatient: nonEmptyText(options.standalonePatient, 'standalonePatient') ?? 'patient-1',
    accessTokenLifetimeSeconds:
      positiveInteger(options.accessTokenLifetimeSeconds, 'accessTokenLifetimeSeconds') ?? 3600,
    backendAccessTokenLifetimeSeconds:
      positiveInteger(
        options.backendAccessTokenLifetimeSeconds,
        'backendAccessTokenLifetimeSeconds',
      ) ?? 300,
    clientAssertionAlgorithms: options.clientAssertionAlgorithms ?? ['RS384', 'ES384'],
    requestLogLimit: nonNegativeInteger(options.requestLogLimit, 'requestLogLimit') ?? 10_000,
    basicAuthDecoding: readBasicAuthDecoding(options.basicAuthDecoding),
    scopeVersions: readScopeVersions(options.scopeVersions),
    narrowGrant: options.narrowGrant,
    vendor: readVendor(options.vendor),
  }
}

function readScopeVersions(value: unknown): readonly ('v1' | 'v2')[] {
  if (value === undefined) return ['v2']
  if (Array.isArray(value) && value.every((version) => version === 'v1' || version === 'v2'))
    return [...new Set(value as ('v1' | 'v2')[])]
  throw new ConfigurationError({
    invalidAttribute: 'scopeVersions',
    invalidValue: value,
    message: "scopeVersions must be an array of 'v1' and 'v2'",
  })
}

/**
 * The test's token endpoint hooks with `narrowGrant` applied after its rewrite: the `scope` of a
 * successful response (one with an `access_token`) narrowed.
 */
function narrowingGrants(
  hooks: TokenEndpointHooks | undefined,
  narrowGrant: SmartSandboxOptions['narrowGrant'],
): TokenEndpointHooks | undefined {
  if (narrowGrant === undefined) return hooks
  return {
    ...hooks,
    rewriteResponse: (body) => {
      const rewritten = hooks?.rewriteResponse?.(body) ?? body
      if (typeof rewritten.access_token !== 'string' || typeof rewritten.scope !== 'string')
        return rewritten
      return { ...rewritten, scope: narrowGrant(splitScopes(rewritten.scope)).join(' ') }
    },
  }
}

function readVendor(value: unknown): SandboxVendor | undefined {
  if (value === undefined || sandboxVendors.includes(value as SandboxVendor)) {
    return value as SandboxVendor | undefined
  }
  throw new ConfigurationError({
    invalidAttribute: 'vendor',
    invalidValue: value,
    validValues: [...sandboxVendors],
  })
}

function readBasicAuthDecoding(value: unknown): BasicAuthDecoding {
  if (value === undefined || value === 'form-urlencoded' || value === 'raw') {
    return value ?? 'form-urlencoded'
  }
  throw new ConfigurationError({
    invalidAttribute: 'basicAuthDecoding',
    invalidValue: value,
    validValues: ['form-urlencoded', 'raw'],
  })
}

async function registerClient(
  provider: Provider,
  store: SandboxStore,
  clientScopes: ClientScopeRegistry,
  secretStandIns: SecretStandIns,
  client: SandboxClient,
): Promise<void> {
  if (
    typeof client !== 'object' ||
    client === null ||
    typeof client.client_id !== 'string' ||
    client.client_id === ''
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'client',
      invalidValue: client,
      message: 'a client needs a non-empty string client_id',
    })
  }
  if (store.find('Client', client.client_id) !== undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'client',
      invalidValue: client.client_id,
      message: `client_id ${client.client_id} is already registered`,
    })
  }
  const metadata = toClientMetadata(client)
  if (typeof client.client_secret === 'string') {
    metadata.client_secret = secretStandIns.register(client.client_id, client.client_secret)
  }
  try {
    await provider.Client.validate(metadata)
  } catch (cause) {
    const description = describeProviderError(cause)
    throw new ConfigurationError(
      {
        invalidAttribute: 'client',
        invalidValue: client.client_id,
        message: `client ${client.client_id} is not acceptable: ${description}`,
      },
      { cause: description },
    )
  }
  if (client.scope !== undefined && typeof client.scope !== 'string') {
    throw new ConfigurationError({
      invalidAttribute: 'client',
      invalidValue: client.client_id,
      message: `client ${client.client_id}: scope must be a space-separated string`,
    })
  }
  store.write('Client', client.client_id, metadata)
  if (client.scope !== undefined) clientScopes.register(client.client_id, client.scope)
}

/** The provider's description of a rejected client; it never contains the client secret. */
function describeProviderError(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { error_description: description, message } = error as {
      error_description?: unknown
      message?: unknown
    }
    if (typeof description === 'string') return description
    if (typeof message === 'string') return message
  }
  return 'rejected by oidc-provider'
}

function createLaunch(launches: LaunchRegistry, request: LaunchRequest): string {
  if (
    typeof request !== 'object' ||
    request === null ||
    typeof request.patient !== 'string' ||
    request.patient === ''
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'patient',
      invalidValue: request?.patient,
      message: 'createLaunch needs a non-empty patient id',
    })
  }
  if (
    request.encounter !== undefined &&
    (typeof request.encounter !== 'string' || request.encounter === '')
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'encounter',
      invalidValue: request.encounter,
      message: 'encounter must be a non-empty string when given',
    })
  }
  return launches.create(request)
}
