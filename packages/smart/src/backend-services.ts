import type { JwsSigner, Logger } from '@fhir-auth/core'
import { requireNonBlankString, usableScopes } from '@fhir-auth/core'
import { createClientAssertion, jwtBearerAssertionType } from './client-assertion.js'
import { requireScopes } from './option-checks.js'
import { postTokenRequest, type TokenRequestCommon } from './token-request.js'
import type { TokenResponse } from './token-response.js'

/** Options of {@link requestBackendServicesToken}. */
export interface BackendServicesTokenOptions extends TokenRequestCommon {
  readonly clientId: string
  /** Signs the client assertion: RS384 or ES384, with the registered key's `kid`. */
  readonly signer: JwsSigner
  /** The scopes to request (see {@link resolveBackendScopes}); sent as they are. */
  readonly scopes: readonly string[]
  /** Becomes the assertion's `jku` header. */
  readonly jwksUri?: string | undefined
}

/**
 * Requests a SMART Backend Services token: a form POST with `grant_type=client_credentials`,
 * `scope`, `client_assertion_type` and `client_assertion`. The client authenticates with the
 * assertion only: no `client_id` in the form, no `Authorization` header, never a secret.
 *
 * @throws ConfigurationError on `scopes` (none usable), `clientId`, `tokenEndpoint`, `signer`,
 *   `kid` or `jwtAlgorithm`.
 * @throws CryptoError when the signer fails.
 * @throws TokenError when the server refuses, answers unusably, or the transport fails.
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html#obtaining-an-access-token
 */
export async function requestBackendServicesToken(
  options: BackendServicesTokenOptions,
): Promise<TokenResponse> {
  const scope = requireScopes(options.scopes)
  const assertion = await createClientAssertion({
    clientId: options.clientId,
    tokenEndpoint: requireNonBlankString(options.tokenEndpoint, 'tokenEndpoint'),
    signer: options.signer,
    jwksUri: options.jwksUri,
    now: options.now,
  })
  return postTokenRequest(
    options,
    {
      grant_type: 'client_credentials',
      scope,
      client_assertion_type: jwtBearerAssertionType,
      client_assertion: assertion,
    },
    {},
    [assertion],
  )
}

/** The scope requested when neither the call nor the configuration gives one (0.4.x only). */
const fallbackScopes: readonly string[] = Object.freeze(['system/*.rs'])

/**
 * The scopes of a backend services request: the per-call scopes when usable (non-blank
 * entries left), else the configured ones, else — deprecated, for 0.4.x compatibility —
 * `system/*.rs` with one deprecation warning. Non-`system/` scopes are passed through
 * unchanged; only blank entries are dropped.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html#obtaining-an-access-token
 */
export function resolveBackendScopes(
  perCall: readonly string[] | undefined,
  configured: readonly string[] | undefined,
  logger: Logger,
): readonly string[] {
  const scopes = usableScopes(perCall) ?? usableScopes(configured)
  if (scopes !== undefined) return scopes
  logger.warn(
    'SMART backend services: no scopes given or configured; requesting system/*.rs. This fallback is deprecated: from v0.6.0 missing scopes raise ConfigurationError on scopes.',
  )
  return fallbackScopes
}
