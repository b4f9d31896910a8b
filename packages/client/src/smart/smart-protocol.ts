import { ConfigurationError, requireNonBlankString, usableScopes } from '@fhir-auth/core'
import type { RegistrationResponse } from '@fhir-auth/smart'
import {
  buildAuthorizationRequest,
  type ClientAuthentication,
  exchangeAuthorizationCode,
  isTokenResponseValid,
  refreshAccessToken,
  type SmartMetadata,
  type TokenResponse,
} from '@fhir-auth/smart/launch'
import { optionalScopes, optionalString, readOptions } from '../arguments.js'
import type { ClientType } from '../client-type.js'
import { lazy } from '../lazy.js'
import type {
  AuthorizationUrlOptions,
  AuthorizationUrlResult,
  CredentialOverrides,
  RefreshTokenOptions,
  RequestAccessTokenOptions,
  RequestBackendTokenOptions,
  SmartRegistrationOptions,
  TokenResponseCheckOptions,
} from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import { SmartDiscovery } from './smart-discovery.js'

const methods = ['get', 'post'] as const

/**
 * The SMART App Launch 2.2.0 implementation behind a `Client`. Internal: built lazily by
 * `Client` only, never exported (spec: "may change without notice").
 *
 * Holds the per-client state the spec fixes: the client type (updated in place on assignment,
 * keeping discovery), the discovery cache and the memoized discovered endpoints.
 *
 * @internal
 */
export class SmartProtocol {
  clientType: ClientType
  readonly #context: ProtocolContext
  readonly #discovery: SmartDiscovery
  // Backend services, registration and signing are loaded on first use: a browser app doing
  // launches as a public client never downloads them.
  readonly #signing = lazy(() =>
    import('./smart-signing.js').then(({ SmartSigning }) => new SmartSigning(this.#context)),
  )
  readonly #backendTokenModule = lazy(() => import('./backend-token.js'))
  readonly #registrationModule = lazy(() => import('./registration.js'))

  constructor(context: ProtocolContext, clientType: ClientType) {
    this.#context = context
    this.clientType = clientType
    this.#discovery = new SmartDiscovery(context)
  }

  serverMetadata(signal?: AbortSignal): Promise<SmartMetadata> {
    return this.#discovery.metadata(signal)
  }

  async authorizationUrl(
    input: AuthorizationUrlOptions | undefined,
  ): Promise<AuthorizationUrlResult> {
    const options = readOptions(input, 'authorizationUrl')
    const { config, logger } = this.#contextParts()
    // Spec order: method, client_id, scopes, then redirect_uri and authorization_endpoint.
    const method = options.method ?? 'get'
    if (!(methods as readonly unknown[]).includes(method)) {
      throw new ConfigurationError({
        invalidAttribute: 'method',
        invalidValue: method,
        validValues: methods,
      })
    }
    logger.info(
      `Generating authorization URL for SMART ${this.clientType} client (method: ${method})`,
      {
        event: 'smart.authorization_url',
      },
    )
    const clientId = requireNonBlankString(config.clientId, 'clientId', false)
    const customScopes = optionalScopes(options.customScopes, 'customScopes')
    const scopes = usableScopes(customScopes ?? config.scopes)
    if (scopes === undefined) {
      throw new ConfigurationError({
        invalidAttribute: 'scopes',
        message: 'scopes are required: configure scopes or pass customScopes',
      })
    }
    const redirectUri = requireNonBlankString(config.redirectUri, 'redirectUri', false)
    const launch = optionalString(options.launch, 'launch')
    const authorizationEndpoint = await this.#discovery.authorizationEndpoint(options.signal)
    const audience = requireNonBlankString(config.issuer, 'issuer', false)
    const request = await buildAuthorizationRequest({
      authorizationEndpoint,
      clientId,
      redirectUri,
      scopes,
      audience,
      launch,
      method,
    })
    return request.params === undefined
      ? { authUrl: request.authUrl, state: request.state, codeVerifier: request.codeVerifier }
      : request
  }

  async requestAccessToken(input: RequestAccessTokenOptions): Promise<TokenResponse> {
    const options = readOptions(input, 'requestAccessToken')
    const { config, logger, now } = this.#contextParts()
    logger.info('Requesting access token using authorization code', {
      event: 'smart.token.authorization_code',
    })
    const clientId = requireNonBlankString(config.clientId, 'clientId', false)
    const code = requireNonBlankString(options.code, 'code')
    const codeVerifier = requireNonBlankString(options.codeVerifier, 'codeVerifier')
    const redirectUri = requireNonBlankString(config.redirectUri, 'redirectUri', false)
    const clientAuthentication = await this.#clientAuthentication(clientId, options)
    return exchangeAuthorizationCode({
      ...this.#context.transport(options.signal),
      tokenEndpoint: await this.#discovery.tokenEndpoint(options.signal),
      code,
      codeVerifier,
      redirectUri,
      clientAuthentication,
      now,
    })
  }

  async refreshToken(input: RefreshTokenOptions): Promise<TokenResponse> {
    const options = readOptions(input, 'refreshToken')
    const { config, logger, now } = this.#contextParts()
    logger.info('Refreshing access token', { event: 'smart.token.refresh' })
    const clientId = requireNonBlankString(config.clientId, 'clientId', false)
    const refreshToken = requireNonBlankString(options.refreshToken, 'refreshToken')
    const scopes = optionalScopes(options.scopes, 'scopes')
    const clientAuthentication = await this.#clientAuthentication(clientId, options)
    return refreshAccessToken({
      ...this.#context.transport(options.signal),
      tokenEndpoint: await this.#discovery.tokenEndpoint(options.signal),
      refreshToken,
      scopes: usableScopes(scopes),
      clientAuthentication,
      now,
    })
  }

  async requestBackendToken(input: RequestBackendTokenOptions | undefined): Promise<TokenResponse> {
    const [{ requestBackendToken }, signing] = await Promise.all([
      this.#backendTokenModule(),
      this.#signing(),
    ])
    return requestBackendToken(this.#context, this.#discovery, signing, input)
  }

  async registerClient(
    metadata: Readonly<Record<string, unknown>>,
    input: SmartRegistrationOptions | undefined,
  ): Promise<RegistrationResponse> {
    const { registerClient } = await this.#registrationModule()
    return registerClient(this.#context, this.#discovery, metadata, input)
  }

  isTokenResponseValid(response: unknown, options: TokenResponseCheckOptions | undefined): boolean {
    return checkTokenResponse(response, options, this.#context)
  }

  #contextParts() {
    const { config, options } = this.#context
    return { config, logger: options.logger, now: options.now }
  }

  async #clientAuthentication(
    clientId: string,
    overrides: Partial<CredentialOverrides>,
  ): Promise<ClientAuthentication> {
    switch (this.clientType) {
      case 'public':
        return { type: 'public', clientId }
      case 'confidential_symmetric': {
        const perCall = optionalString(overrides.clientSecret, 'clientSecret', true)
        const clientSecret = requireNonBlankString(
          perCall ?? this.#context.config.clientSecret,
          'clientSecret',
        )
        return {
          type: 'confidential_symmetric',
          clientId,
          clientSecret,
          basicAuthEncoding: this.#context.options.basicAuthEncoding,
        }
      }
      case 'confidential_asymmetric':
        return {
          type: 'confidential_asymmetric',
          clientId,
          signer: await (await this.#signing()).signer(overrides),
          jwksUri: this.#context.config.jwksUri,
        }
    }
  }
}

const flows = ['app_launch', 'backend_services'] as const

/**
 * `isTokenResponseValid` for any protocol: never throws; an unknown `flow` is itself a warning.
 *
 * @internal
 */
export function checkTokenResponse(
  response: unknown,
  options: TokenResponseCheckOptions | undefined,
  context: ProtocolContext,
): boolean {
  const logger = context.options.logger
  let flow: unknown
  try {
    flow = options?.flow ?? 'app_launch'
  } catch {
    flow = undefined
  }
  if (!(flows as readonly unknown[]).includes(flow)) {
    logger.warn(
      `SMART token response non-compliance: unknown flow ${JSON.stringify(String(flow))}; checked as app_launch`,
    )
    isTokenResponseValid(response, { flow: 'app_launch', logger })
    return false
  }
  return isTokenResponseValid(response, { flow: flow as (typeof flows)[number], logger })
}
