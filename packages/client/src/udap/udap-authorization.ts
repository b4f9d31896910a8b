import { ConfigurationError, generateState } from '@fhir-auth/core/essentials'
import { authorizationMethod, requireNonBlankString, usableScopes } from '@fhir-auth/core/internal'
import { buildUdapAuthorizationRequest, tieredOAuthScope, type UdapMetadata } from '@fhir-auth/udap'
import type { UdapFlow } from '../flow.js'
import type { AuthorizationUrlOptions } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import type { StartedAuthorization } from '../protocol-implementation.js'

/**
 * Scopes that ask only who the user is. A Tiered OAuth request with nothing else comes from a
 * data holder to an identity provider, and names no further `idp`.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/user.html
 */
export const identityScopes: readonly string[] = Object.freeze([
  'openid',
  tieredOAuthScope,
  'profile',
  'email',
])

/** Where the authorization endpoint comes from, once the request's own checks have passed. */
export type AuthorizationMetadataSource = (
  options: Partial<AuthorizationUrlOptions>,
) => Promise<UdapMetadata | undefined>

/**
 * A UDAP authorization request (ADR 0011): the checks in order — `method`, `clientId`
 * (configured or registered), `scopes`, `redirectUri`, `launch` (UDAP has none), `idp` and the
 * flow's rules — then the trusted metadata for the signed `authorization_endpoint` (a configured
 * one wins, as for the token endpoint), a `nonce` when the scopes include `openid`, and the
 * request. `tiered_oauth` adds `udap` to the scopes and sends `idp`.
 *
 * @throws ConfigurationError naming the option; DiscoveryError when trusted discovery fails.
 * @internal
 */
export async function startUdapAuthorization(
  context: ProtocolContext,
  metadataFor: AuthorizationMetadataSource,
  input: AuthorizationUrlOptions | undefined,
): Promise<StartedAuthorization> {
  const options = context.readOptions(input, 'authorizationUrl')
  const { config } = context
  const flow = context.flow ?? 'b2b'
  const method = authorizationMethod(options.method)
  context.options.logger.info(
    `Generating authorization URL for UDAP ${flow} client (method: ${method})`,
    { event: 'udap.authorization_url' },
  )
  const clientId = requireNonBlankString(context.clientId(), 'clientId', false)
  const { optionalScopes, optionalString } = context.checks
  const requested = usableScopes(
    optionalScopes(options.customScopes, 'customScopes') ?? config.scopes,
  )
  if (requested === undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'scopes',
      message: 'scopes are required: configure scopes or pass customScopes',
    })
  }
  const redirectUri = requireNonBlankString(config.redirectUri, 'redirectUri', false)
  if (optionalString(options.launch, 'launch') !== undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'launch',
      message: 'launch is a SMART EHR-launch parameter; UDAP authorization requests have none',
    })
  }
  const idp = readIdp(flow, requested, optionalString(options.idp, 'idp'))
  const scopes =
    flow === 'tiered_oauth' && !requested.includes(tieredOAuthScope)
      ? [...requested, tieredOAuthScope]
      : requested
  const metadata = await metadataFor(options)
  if (flow === 'tiered_oauth' && metadata !== undefined && !metadata.supportsTieredOAuth()) {
    throw new ConfigurationError({
      invalidAttribute: 'flow',
      invalidValue: flow,
      validValues: ['b2b', 'b2c'],
      message:
        'the server does not offer Tiered OAuth: its metadata lists no udap_to profile or no udap scope',
    })
  }
  const authorizationEndpoint = config.authorizationEndpoint ?? metadata?.authorizationEndpoint
  if (authorizationEndpoint === undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'authorizationEndpoint',
      message:
        'the server signed no authorization_endpoint: it does not offer the authorization code flow',
    })
  }
  const nonce = scopes.includes('openid') ? generateState() : undefined
  const request = await buildUdapAuthorizationRequest({
    authorizationEndpoint,
    clientId,
    redirectUri,
    scopes,
    method,
    nonce,
    idp,
    allowInsecureLocalhost: config.allowInsecureLocalhost,
  })
  return { ...request, nonce, redirectUri, scopes }
}

/**
 * The `idp` of a request: only `tiered_oauth` takes one, and needs one unless the scopes are
 * identity scopes only (then this client is the data holder and its server the IdP).
 *
 * @throws ConfigurationError `idp`.
 */
function readIdp(
  flow: UdapFlow,
  scopes: readonly string[],
  idp: string | undefined,
): string | undefined {
  if (flow !== 'tiered_oauth') {
    if (idp === undefined) return undefined
    throw new ConfigurationError({
      invalidAttribute: 'idp',
      message: `idp is a Tiered OAuth parameter: create the client with flow: 'tiered_oauth' (this client's flow is ${flow})`,
    })
  }
  if (idp !== undefined || scopes.every((scope) => identityScopes.includes(scope))) return idp
  throw new ConfigurationError({
    invalidAttribute: 'idp',
    message:
      'idp (the identity provider’s base URL) is required for Tiered OAuth unless the scopes are identity scopes only (openid, udap, profile, email)',
  })
}
