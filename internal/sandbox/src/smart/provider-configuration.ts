/// <reference path="./oidc-provider.d.ts" />
import type { JsonWebKey } from 'node:crypto'
import type { IssuedToken, ProviderClient, ProviderContext } from 'oidc-provider'
import { smartAssertionProblem } from './client-assertion-rules.js'
import type { ClientScopeRegistry } from './client-scopes.js'
import type { LaunchContext, LaunchRegistry } from './launch-context.js'
import type { OidcProviderExports } from './load-provider.js'
import type { SandboxStore } from './memory-adapter.js'
import { smartClientProblems } from './sandbox-client.js'
import {
  identityScopes,
  isAppLaunchScope,
  isBackendServicesScope,
  splitScopes,
} from './smart-scopes.js'

/** Paths of the provider's endpoints, relative to the issuer (the sandbox origin). */
export const providerRoutes = {
  authorization: '/auth',
  token: '/token',
  registration: '/reg',
  jwks: '/jwks',
  introspection: '/token/introspection',
  revocation: '/token/revocation',
} as const

/** Path prefix of the interaction pages the front answers for the "user". */
export const interactionPathPrefix = '/interaction/'

/** Everything {@link buildProviderConfiguration} needs. */
export interface ProviderConfigurationSettings {
  readonly errors: OidcProviderExports['errors']
  readonly fhirBaseUrl: string
  readonly tokenEndpoint: string
  readonly store: SandboxStore
  readonly signingKey: JsonWebKey
  readonly cookieKey: string
  readonly initialAccessToken: string
  readonly clientAssertionAlgorithms: readonly string[]
  readonly accessTokenLifetimeSeconds: number
  readonly backendAccessTokenLifetimeSeconds: number
  readonly account: { readonly id: string; readonly fhirUser: string }
  readonly launches: LaunchRegistry
  readonly launchContexts: ReadonlyMap<string, LaunchContext>
  readonly clientScopes: ClientScopeRegistry
}

/** Seconds the provider tolerates between its clock and a client's (assertion `exp`, `iat`). */
export const clockToleranceSeconds = 5

const hour = 60 * 60
const day = 24 * hour

/**
 * The oidc-provider configuration that makes it a strict SMART App Launch 2.2.0 server.
 *
 * - PKCE S256 for every client; `response_type=code` only; authorize via GET and POST.
 * - Client authentication: `none`, `client_secret_basic`, `private_key_jwt` (RS384/ES384 by
 *   default) with SMART's assertion rules ({@link smartAssertionProblem}) and `jti` replay
 *   protection.
 * - `aud` must be the FHIR base; an unknown `launch` fails; both checks run after the
 *   redirect_uri check, so they come back to the client as error redirects.
 * - SMART scopes live on one resource server, the FHIR base (resource indicators with that
 *   default). Identity scopes (`openid`, `fhirUser`, `offline_access`, …) are granted as
 *   OpenID Connect scopes *and* carried by the access token, so the token response's `scope`
 *   lists every granted scope, SMART style.
 * - Refresh tokens only with `offline_access`, rotated on every use (reusing one revokes the
 *   grant); `client_credentials` only with `system/` scopes and never a refresh token.
 * - Opaque access tokens stored in the sandbox's store, so revocation is immediate.
 * - RFC 7591 registration at `/reg` behind an initial access token.
 * - Every grant comes from a fresh consent (no silent re-use of an earlier grant), so each
 *   authorization carries its own launch context.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html
 * @see https://github.com/panva/node-oidc-provider/blob/v9.x/docs/README.md#configuration-options
 */
export function buildProviderConfiguration(settings: ProviderConfigurationSettings): object {
  const { errors, fhirBaseUrl } = settings
  return {
    adapter: settings.store.adapterFactory,
    jwks: { keys: [settings.signingKey] },
    cookies: {
      keys: [settings.cookieKey],
      // enableHttpPostMethods insists on SameSite=None (an authorize-POST is a cross-site form
      // post); the front turns it into Lax on the wire, see relaxSameSiteNoneCookies.
      long: { httpOnly: true, sameSite: 'none' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    enableHttpPostMethods: true,
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientAuthMethods: ['none', 'client_secret_basic', 'private_key_jwt'],
    enabledJWA: {
      clientAuthSigningAlgValues: [...settings.clientAssertionAlgorithms],
      idTokenSigningAlgValues: ['RS256'],
    },
    clockTolerance: clockToleranceSeconds,
    scopes: [...identityScopes],
    claims: { openid: ['sub'], fhirUser: ['fhirUser'], profile: ['name'] },
    // SMART wants fhirUser in the ID token itself, not only at a userinfo endpoint.
    conformIdTokenClaims: false,
    extraParams: {
      // Runs on every authorization request (aud is required), after the redirect_uri check.
      aud: (context: ProviderContext, value: unknown, client: ProviderClient) => {
        checkAudience(settings, value)
        checkRegisteredScope(settings, client, context.oidc?.params?.scope)
      },
      launch: (context: ProviderContext, value: unknown) => checkLaunch(settings, context, value),
    },
    routes: { ...providerRoutes },
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: async (
          _context: ProviderContext,
          client: ProviderClient,
          token: { clientId?: string },
        ) => client.clientAuthMethod !== 'none' || token.clientId === client.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: async (
          _context: ProviderContext,
          client: ProviderClient,
          token: { clientId?: string },
        ) => token.clientId === client.clientId,
      },
      registration: {
        enabled: true,
        initialAccessToken: settings.initialAccessToken,
        issueRegistrationAccessToken: true,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => fhirBaseUrl,
        // Tokens always go to the FHIR server, even when openid is in scope.
        useGrantedResource: async () => true,
        getResourceServerInfo: async (
          context: ProviderContext,
          resourceIndicator: string,
          client: ProviderClient,
        ) => resourceServerInfo(settings, context, resourceIndicator, client),
      },
    },
    extraClientMetadata: {
      // One recognised extra property, so the validator sees every client's full metadata.
      properties: ['software_id'],
      validator: (
        _context: unknown,
        _key: string,
        _value: unknown,
        metadata: Record<string, unknown>,
      ) => {
        const problems = smartClientProblems(metadata)
        if (problems.length > 0) throw new errors.InvalidClientMetadata(problems.join('; '))
      },
    },
    assertJwtClientAuthClaimsAndHeader: async (
      context: ProviderContext,
      claims: Record<string, unknown>,
      header: Record<string, unknown>,
      client: ProviderClient,
    ) => {
      const problem = smartAssertionProblem(
        {
          claims,
          header,
          clientId: client.clientId,
          jwksUri: client.jwksUri,
          route: context.oidc?.route,
        },
        {
          tokenEndpoint: settings.tokenEndpoint,
          clockToleranceSeconds,
          nowSeconds: Math.floor(Date.now() / 1000),
        },
      )
      if (problem !== undefined) throw new errors.InvalidClientAuth(problem)
    },
    // Only the grant this interaction's consent created; never a grant remembered by the session.
    loadExistingGrant: async (context: ProviderContext) => {
      const grantId = context.oidc?.result?.consent?.grantId
      return grantId === undefined ? undefined : context.oidc?.provider.Grant.find(grantId)
    },
    findAccount: async (_context: unknown, subject: string) =>
      subject === settings.account.id
        ? {
            accountId: subject,
            claims: async () => ({
              sub: subject,
              fhirUser: settings.account.fhirUser,
              name: 'Sandbox User',
            }),
          }
        : undefined,
    extraTokenClaims: async (_context: unknown, token: IssuedToken) => {
      if (token.kind !== 'AccessToken' || token.grantId === undefined) return undefined
      const launchContext = settings.launchContexts.get(token.grantId)
      if (launchContext === undefined) return undefined
      return {
        ...(launchContext.patient === undefined ? {} : { patient: launchContext.patient }),
        ...(launchContext.encounter === undefined ? {} : { encounter: launchContext.encounter }),
      }
    },
    rotateRefreshToken: true,
    ttl: {
      AccessToken: () => settings.accessTokenLifetimeSeconds,
      ClientCredentials: () => settings.backendAccessTokenLifetimeSeconds,
      AuthorizationCode: () => 60,
      IdToken: () => hour,
      RefreshToken: () => 14 * day,
      Interaction: () => 10 * 60,
      Session: () => day,
      Grant: () => 14 * day,
    },
    fetch: loopbackFetch,
    // Browser demos call the token endpoint cross-origin; CORS is not what the sandbox tests.
    clientBasedCORS: () => true,
    renderError: async (context: { type: string; body: unknown }, out: Record<string, unknown>) => {
      // A JSON error page instead of HTML, so sandbox.authorize can report error and description.
      context.type = 'json'
      context.body = out
    },
  }
}

/**
 * The provider's outgoing fetch (client `jwks_uri`): loopback only. oidc-provider's default
 * dispatcher refuses special-use addresses (SSRF protection), which would refuse every test
 * JWKS server; the sandbox instead refuses everything that is *not* loopback, so it never
 * reaches the network.
 */
async function loopbackFetch(
  url: string | URL,
  options: RequestInit & { dispatcher?: unknown },
): Promise<Response> {
  const target = new URL(url)
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
    throw new Error(`the SMART sandbox only fetches loopback URLs, not ${target.origin}`)
  }
  const { dispatcher: _ssrfDispatcher, ...init } = options
  return fetch(target, init)
}

function checkAudience(settings: ProviderConfigurationSettings, value: unknown): void {
  if (value === undefined) {
    throw new settings.errors.InvalidRequest(
      `aud is required: the FHIR base URL of the resource server (${settings.fhirBaseUrl})`,
    )
  }
  if (value !== settings.fhirBaseUrl) {
    throw new settings.errors.InvalidRequest(
      `aud must be the FHIR base URL ${settings.fhirBaseUrl}`,
    )
  }
}

function checkRegisteredScope(
  settings: ProviderConfigurationSettings,
  client: ProviderClient,
  requested: string | undefined,
): void {
  const allowed = settings.clientScopes.allowed(client.clientId)
  if (allowed === undefined) return
  const outside = splitScopes(requested).filter((scope) => !allowed.has(scope))
  if (outside.length > 0) {
    throw new settings.errors.InvalidScope(
      'requested scope is not registered for this client',
      outside.join(' '),
    )
  }
}

function checkLaunch(
  settings: ProviderConfigurationSettings,
  context: ProviderContext,
  value: unknown,
): void {
  if (value === undefined) return
  if (typeof value !== 'string' || settings.launches.find(value) === undefined) {
    throw new settings.errors.InvalidRequest('launch is not a launch this server issued')
  }
  if (!splitScopes(context.oidc?.params?.scope).includes('launch')) {
    throw new settings.errors.InvalidScope('an EHR launch needs the launch scope', 'launch')
  }
}

/**
 * The FHIR base as a resource server. Its scope list is computed per request from the scopes in
 * play (requested, or carried by the code or refresh token being redeemed): oidc-provider needs
 * an explicit list, and SMART scopes (with v2 query constraints) cannot be enumerated.
 */
function resourceServerInfo(
  settings: ProviderConfigurationSettings,
  context: ProviderContext,
  resourceIndicator: string,
  client: ProviderClient,
): { scope: string; audience: string; accessTokenFormat: 'opaque' } {
  if (resourceIndicator !== settings.fhirBaseUrl) {
    throw new settings.errors.InvalidTarget(
      `the only resource is the FHIR base URL ${settings.fhirBaseUrl}`,
    )
  }
  const oidc = context.oidc
  const allowedByClient = settings.clientScopes.allowed(client.clientId)
  let scopes: string[]
  if (oidc?.route === 'token' && oidc.params?.grant_type === 'client_credentials') {
    scopes = backendServicesScopes(settings, oidc.params.scope, allowedByClient)
  } else {
    const candidates = [
      ...splitScopes(oidc?.params?.scope),
      ...splitScopes(oidc?.entities.AuthorizationCode?.scope),
      ...splitScopes(oidc?.entities.RefreshToken?.scope),
    ]
    scopes = [...new Set(candidates)].filter(
      (scope) => isAppLaunchScope(scope) && (allowedByClient?.has(scope) ?? true),
    )
  }
  return { scope: scopes.join(' '), audience: settings.fhirBaseUrl, accessTokenFormat: 'opaque' }
}

/**
 * SMART Backend Services: `scope` is required and may hold only `system/` scopes (and, when
 * the client has a registered `scope`, only those).
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html#request-an-access-token
 */
function backendServicesScopes(
  settings: ProviderConfigurationSettings,
  requested: string | undefined,
  allowedByClient: ReadonlySet<string> | undefined,
): string[] {
  const scopes = splitScopes(requested)
  if (scopes.length === 0) {
    throw new settings.errors.InvalidScope('scope is required for the client_credentials grant')
  }
  const notSystem = scopes.filter((scope) => !isBackendServicesScope(scope))
  if (notSystem.length > 0) {
    throw new settings.errors.InvalidScope(
      'the client_credentials grant accepts only system/ scopes (SMART Backend Services)',
      notSystem.join(' '),
    )
  }
  const notAllowed = scopes.filter(
    (scope) => allowedByClient !== undefined && !allowedByClient.has(scope),
  )
  if (notAllowed.length > 0) {
    throw new settings.errors.InvalidScope(
      'requested scope is not allowed for this client',
      notAllowed.join(' '),
    )
  }
  return scopes
}
