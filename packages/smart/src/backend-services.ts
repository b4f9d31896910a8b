/**
 * `@fhir-auth/smart/backend-services`: SMART Backend Services, the client-credentials grant with
 * a signed client assertion. Also exported by the main entry; this one is what a bundle split per
 * dynamic import loads when a backend token is requested, without registration or discovery code.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html
 * @packageDocumentation
 */
import type { JwsSigner, Logger } from '@fhir-auth/core/essentials'
import {
  readOptions,
  requireNonBlankString,
  requireScopes,
  usableScopes,
} from '@fhir-auth/core/internal'
import { loadClientAssertion } from './client-authentication.js'
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
 * @example
 * ```ts
 * const signer = await createNodeCryptoBackend().importSigner(privateKeyPem, {
 *   profile: 'smart',
 *   kid: 'key-1',
 * })
 * const tokens = await requestBackendServicesToken({
 *   tokenEndpoint: metadata.tokenEndpoint,
 *   clientId: 'my-service',
 *   signer,
 *   scopes: ['system/Patient.rs'],
 * })
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html#obtaining-an-access-token
 */
export async function requestBackendServicesToken(
  input: BackendServicesTokenOptions,
): Promise<TokenResponse> {
  const options = readOptions(input, 'requestBackendServicesToken', { required: true })
  const scope = requireScopes(options.scopes)
  // createClientAssertion checks the client id and the signer. It is loaded as asymmetric token
  // requests load it, so the two share one chunk rather than splitting it; the assertion type
  // comes with it, so this module imports no signing code and a client may load it up front.
  const { createClientAssertion, jwtBearerAssertionType } = await loadClientAssertion()
  const assertion = await createClientAssertion({
    clientId: options.clientId as string,
    tokenEndpoint: requireNonBlankString(options.tokenEndpoint, 'tokenEndpoint'),
    signer: options.signer as JwsSigner,
    jwksUri: options.jwksUri,
    now: options.now,
  })
  return postTokenRequest(
    options as BackendServicesTokenOptions,
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
const fallbackScopes: readonly string[] = /* @__PURE__ */ Object.freeze(['system/*.rs'])

/**
 * The scopes of a backend services request: the per-call scopes when usable (non-blank
 * entries left), else the configured ones, else — deprecated, for 0.4.x compatibility —
 * `system/*.rs` with one deprecation warning. Non-`system/` scopes are passed through
 * unchanged; only blank entries are dropped.
 *
 * @example
 * ```ts
 * resolveBackendScopes(undefined, ['system/Patient.rs'], logger) // ['system/Patient.rs']
 * resolveBackendScopes([' '], undefined, logger) // ['system/*.rs'], with a deprecation warning
 * ```
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
    'SMART backend services: no scopes given, so system/*.rs is requested (deprecated: a ConfigurationError on scopes from v0.6.0)',
  )
  return fallbackScopes
}
