import type { JwsSigner, TokenResponse } from '@fhir-auth/core/essentials'
import { silentLogger } from '@fhir-auth/core/essentials'
import { requireNonBlankString } from '@fhir-auth/core/internal'
import type {
  requestBackendServicesToken,
  resolveBackendScopes,
} from '@fhir-auth/smart/backend-services'
import type {
  BackendTokensOptions,
  CredentialOverrides,
  RequestBackendTokenOptions,
} from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import type { BackendTokenIdentity } from '../tokens/backend-token-identity.js'
import type { SmartDiscovery } from './smart-discovery.js'

/**
 * Smart's Backend Services functions, handed over by the SMART implementation, which imports them
 * up front. Imported here, they would make smart's token request code a chunk shared with the
 * main one, which every browser app would fetch up front (ADR 0012).
 *
 * @internal
 */
export interface SmartBackendServices {
  readonly requestBackendServicesToken: typeof requestBackendServicesToken
  readonly resolveBackendScopes: typeof resolveBackendScopes
  /** The scopes in the syntax `ClientOptions.scopeVersion` asks for (`SmartProtocol.scopesToSend`). */
  readonly scopesToSend: (
    scopes: readonly string[],
    signal: AbortSignal | undefined,
  ) => Promise<readonly string[]>
}

/**
 * What a backend token request uses of `SmartSigning`: the signer for the call's key. Declared
 * here and implemented there: `smart-signing.ts` re-exports this module (one chunk), so this one
 * does not import it back (ADR 0015).
 *
 * @internal
 */
export interface BackendTokenSigning {
  signer(overrides: Partial<Pick<CredentialOverrides, 'privateKey' | 'kid'>>): Promise<JwsSigner>
}

/**
 * SMART Backend Services: client credentials with a signed assertion, never a secret. Loaded on
 * demand by the SMART implementation, in the signing chunk (`smart-signing.ts` re-exports it).
 *
 * @internal
 */
export async function requestBackendToken(
  context: ProtocolContext,
  discovery: SmartDiscovery,
  signing: BackendTokenSigning,
  input: RequestBackendTokenOptions | undefined,
  smart: SmartBackendServices,
): Promise<TokenResponse> {
  const options = context.readOptions(input, 'requestBackendToken')
  const { config } = context
  const logger = context.options.logger
  logger.info('Requesting backend services access token (client_credentials grant)', {
    event: 'smart.token.client_credentials',
  })
  const clientId = requireNonBlankString(config.clientId, 'clientId', false)
  const perCallScopes = context.checks.optionalScopes(options.scopes, 'scopes')
  const signer = await signing.signer(options)
  const scopes = await smart.scopesToSend(
    smart.resolveBackendScopes(perCallScopes, config.scopes, logger),
    options.signal,
  )
  return smart.requestBackendServicesToken({
    ...context.transport(options.signal),
    tokenEndpoint: await discovery.tokenEndpoint(options.signal),
    clientId,
    signer,
    scopes,
    jwksUri: config.jwksUri,
    now: context.options.now,
  })
}

/**
 * What identifies the token `requestBackendToken` would get with these options: the token
 * endpoint, client id and the very scopes it would request (the cache identity of ADR 0010). The
 * deprecation warning of the scope fallback is left to the request itself.
 *
 * @internal
 */
export async function backendTokenIdentity(
  context: ProtocolContext,
  discovery: SmartDiscovery,
  input: BackendTokensOptions,
  smart: SmartBackendServices,
): Promise<BackendTokenIdentity> {
  const { config } = context
  const clientId = requireNonBlankString(config.clientId, 'clientId', false)
  const perCall = context.checks.optionalScopes(input.scopes, 'scopes')
  return {
    tokenEndpoint: await discovery.tokenEndpoint(undefined),
    clientId,
    scopes: await smart.scopesToSend(
      smart.resolveBackendScopes(perCall, config.scopes, silentLogger),
      undefined,
    ),
  }
}
