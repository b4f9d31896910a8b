import {
  ConfigurationError,
  generateState,
  IdTokenError,
  type Logger,
  type RegistrationResponse,
  type TokenSet,
} from '@fhir-auth/core/essentials'
import {
  authorizationMethod,
  fetchDiscoveryDocument,
  lazy,
  lazyImport,
  optionalScopes,
  optionalString,
  requireNonBlankString,
  usableScopes,
} from '@fhir-auth/core/internal'
import {
  requestBackendServicesToken,
  resolveBackendScopes,
} from '@fhir-auth/smart/backend-services'
import {
  buildAuthorizationRequest,
  type ClientAuthentication,
  discoverSmartConfiguration,
  exchangeAuthorizationCode,
  type RevokedTokenType,
  refreshAccessToken,
  revokeToken,
  type SmartMetadata,
  type TokenResponse,
} from '@fhir-auth/smart/launch'
import type { DiagnosticServerAccess } from '../diagnostics/server-access.js'
import type { OpenIdProviderHint } from '../identity/openid-provider.js'
import type {
  AuthorizationUrlOptions,
  AuthorizationUrlResult,
  BackendTokensOptions,
  CredentialOverrides,
  RefreshTokenOptions,
  RequestAccessTokenOptions,
  RequestBackendTokenOptions,
  SmartRegistrationOptions,
} from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import type {
  AuthorizationIssuer,
  ProtocolImplementation,
  StartedAuthorization,
} from '../protocol-implementation.js'
import type { BackendTokenIdentity } from '../tokens/backend-token-identity.js'
import type { SmartBackendServices } from './backend-token.js'
import { bindSmartIssuer, SmartIssuerBinding } from './issuer-binding.js'
import { noteRelativeEndpoints, SmartDiscovery } from './smart-discovery.js'

/**
 * The SMART App Launch 2.2.0 implementation behind a `Client`. Internal: built lazily by
 * `Client` only, never exported (spec: "may change without notice").
 *
 * Holds the per-client state the spec fixes: the discovery cache and the memoized discovered
 * endpoints. The client type is the context's, so an assignment takes effect in place, keeping
 * discovery.
 *
 * @internal
 */
export class SmartProtocol implements ProtocolImplementation {
  readonly #context: ProtocolContext
  readonly #discovery: SmartDiscovery
  readonly #issuerBinding: SmartIssuerBinding
  #pkceWarned = false
  // Signing and registration are loaded on first use: a browser app doing launches as a public
  // client never downloads them. Backend services travel in the signing chunk, since every
  // backend token is signed (only smart's small request function for them is up front, handed
  // over: see `backendServices`).
  readonly #signingModule = lazyImport(() => import('./smart-signing.js'))
  readonly #signing = lazy(() =>
    this.#signingModule().then(({ SmartSigning }) => new SmartSigning(this.#context)),
  )
  readonly #registrationModule = lazyImport(() => import('./registration.js'))
  readonly #unsentSecretHint = lazyImport(() => import('./unsent-secret-hint.js'))
  readonly #scopeVersion = lazyImport(() => import('./scope-version.js'))

  /** Smart's Backend Services, handed to the backend token module (loaded on demand; ADR 0012). */
  readonly #backendServices: SmartBackendServices = {
    requestBackendServicesToken,
    resolveBackendScopes,
    scopesToSend: (scopes, signal) => this.#scopesToSend(scopes, signal),
  }

  constructor(context: ProtocolContext) {
    this.#context = context
    this.#discovery = new SmartDiscovery(context)
    this.#issuerBinding = new SmartIssuerBinding(
      () => ({ issuer: context.config.issuer, baseUrl: context.config.baseUrl }),
      () => context.transport(),
    )
  }

  get #clientType() {
    return this.#context.clientType ?? 'public'
  }

  async serverMetadata(
    input: { readonly signal?: AbortSignal } | undefined,
  ): Promise<SmartMetadata> {
    const options = this.#context.readOptions(input, 'serverMetadata')
    return this.#discovery.metadata(options.signal)
  }

  async authorizationUrl(
    input: AuthorizationUrlOptions | undefined,
  ): Promise<AuthorizationUrlResult> {
    // What beginAuthorization keeps besides the request stays out of the spec's result.
    const { nonce, redirectUri, scopes, ...result } = await this.#authorize(input, false)
    return result
  }

  startAuthorization(input: AuthorizationUrlOptions | undefined): Promise<StartedAuthorization> {
    return this.#authorize(input, true)
  }

  /**
   * The issuer the SMART configuration names, when it is bound to this server (ADR 0013). A
   * callback without `iss` compares no issuer: the binding (maybe a request) waits for one that
   * does, or for the first ID token.
   */
  async authorizationIssuer(
    signal: AbortSignal | undefined,
    { carriesIss = true }: { readonly carriesIss?: boolean | undefined } = {},
  ): Promise<AuthorizationIssuer> {
    const metadata = await this.#discoverable(signal)
    const issRequired = metadata?.raw.authorization_response_iss_parameter_supported === true
    // Without an issuer in the SMART configuration, the configured one stands for it, as it
    // does for ID token validation.
    if (metadata?.issuer === undefined) {
      return { issuer: metadata && this.#context.config.issuer, issRequired }
    }
    // Nothing to compare: the issuer as claimed can only be named in a message.
    if (!carriesIss) return { issuer: metadata.issuer, issRequired }
    const binding = await this.#issuerBinding.of(metadata.issuer, metadata, signal)
    return binding.bound
      ? { issuer: metadata.issuer, issRequired }
      : { issuer: undefined, issRequired, unbound: binding.why }
  }

  /**
   * The SMART configuration's issuer and keys when the issuer is bound to this server (ADR
   * 0013); without an issuer there, nothing (the configured issuer's openid-configuration then).
   *
   * @throws IdTokenError `iss` when the issuer it names is not bound.
   */
  async openIdProvider(signal: AbortSignal | undefined): Promise<OpenIdProviderHint> {
    const metadata = await this.#discoverable(signal)
    if (metadata?.issuer === undefined) {
      return {
        issuer: undefined,
        jwksUri: metadata?.jwksUri,
        algorithms: metadata?.raw.id_token_signing_alg_values_supported,
      }
    }
    const binding = await this.#issuerBinding.of(metadata.issuer, metadata, signal)
    if (!binding.bound)
      throw new IdTokenError('iss', `the ID token cannot be checked: ${binding.why}`)
    return binding.provider
  }

  /** The SMART configuration, or nothing without a baseUrl to discover it from. */
  /** What `client.diagnose` uses of this chunk's code (see `DiagnosticServerAccess`). */
  diagnosticServer(): DiagnosticServerAccess {
    return {
      discover: (baseUrl, transport) => discoverSmartConfiguration({ ...transport, baseUrl }),
      bindIssuer: bindSmartIssuer,
      noteRelativeEndpoints,
      fetchJsonObject: (url, label, transport) => fetchDiscoveryDocument({ url, label, transport }),
    }
  }

  /** athenahealth's missing PKCE list: S256 is sent anyway, with one warning per client. */
  async #warnOnUnlistedPkce(metadata: SmartMetadata, logger: Logger): Promise<void> {
    if (metadata.codeChallengeMethodsSupported !== undefined || this.#pkceWarned) return
    this.#pkceWarned = true
    ;(await import('./deviation-warnings.js')).warnOnUnlistedPkce(logger)
  }

  async #discoverable(signal: AbortSignal | undefined): Promise<SmartMetadata | undefined> {
    return this.#context.config.baseUrl === undefined ? undefined : this.#discovery.metadata(signal)
  }

  async backendTokenIdentity(input: BackendTokensOptions): Promise<BackendTokenIdentity> {
    const { backendTokenIdentity } = await this.#signingModule()
    return backendTokenIdentity(this.#context, this.#discovery, input, this.#backendServices)
  }

  /**
   * The authorization request, in the spec's order of checks: method, client_id, scopes, then
   * redirect_uri and the authorization endpoint. `withNonce` adds a fresh `nonce` when the
   * scopes include `openid` (`beginAuthorization`; the spec's `authorizationUrl` sends none).
   */
  async #authorize(
    input: AuthorizationUrlOptions | undefined,
    withNonce: boolean,
  ): Promise<StartedAuthorization> {
    const options = this.#context.readOptions(input, 'authorizationUrl')
    const { config, logger } = this.#contextParts()
    const method = authorizationMethod(options.method)
    logger.info(
      `Generating authorization URL for SMART ${this.#clientType} client (method: ${method})`,
      {
        event: 'smart.authorization_url',
      },
    )
    const clientId = requireNonBlankString(config.clientId, 'clientId', false)
    const customScopes = optionalScopes(options.customScopes, 'customScopes')
    const asked = usableScopes(customScopes ?? config.scopes)
    if (asked === undefined) {
      throw new ConfigurationError({
        invalidAttribute: 'scopes',
        message: 'scopes are required: configure scopes or pass customScopes',
      })
    }
    const redirectUri = requireNonBlankString(config.redirectUri, 'redirectUri', false)
    const launch = optionalString(options.launch, 'launch')
    const authorizationEndpoint = await this.#discovery.authorizationEndpoint(options.signal)
    if (config.authorizationEndpoint === undefined) {
      await this.#warnOnUnlistedPkce(await this.#discovery.metadata(options.signal), logger)
    }
    const audience = requireNonBlankString(config.issuer, 'issuer', false)
    // After every check of the configuration: with `scopeVersion: 'auto'` this reads discovery.
    const scopes = await this.#scopesToSend(asked, options.signal)
    const nonce = withNonce && scopes.includes('openid') ? generateState() : undefined
    const request = await buildAuthorizationRequest({
      authorizationEndpoint,
      clientId,
      redirectUri,
      scopes,
      audience,
      launch,
      method,
      nonce,
    })
    return { ...request, nonce, redirectUri, scopes }
  }

  async requestAccessToken(input: RequestAccessTokenOptions): Promise<TokenResponse> {
    const options = this.#context.readOptions(input, 'requestAccessToken')
    const { config, logger, now } = this.#contextParts()
    logger.info('Requesting access token using authorization code', {
      event: 'smart.token.authorization_code',
    })
    const clientId = requireNonBlankString(config.clientId, 'clientId', false)
    const code = requireNonBlankString(options.code, 'code')
    const codeVerifier = requireNonBlankString(options.codeVerifier, 'codeVerifier')
    const redirectUri = requireNonBlankString(config.redirectUri, 'redirectUri', false)
    const clientAuthentication = await this.#clientAuthentication(clientId, options)
    return this.#explainingUnsentSecret(clientAuthentication, options, async () =>
      exchangeAuthorizationCode({
        ...this.#context.transport(options.signal),
        tokenEndpoint: await this.#discovery.tokenEndpoint(options.signal),
        code,
        codeVerifier,
        redirectUri,
        clientAuthentication,
        now,
      }),
    )
  }

  async refreshToken(
    input: RefreshTokenOptions,
    heldSecrets?: readonly string[],
  ): Promise<TokenResponse> {
    const options = this.#context.readOptions(input, 'refreshToken')
    const { config, logger, now } = this.#contextParts()
    logger.info('Refreshing access token', { event: 'smart.token.refresh' })
    const clientId = requireNonBlankString(config.clientId, 'clientId', false)
    const refreshToken = requireNonBlankString(options.refreshToken, 'refreshToken')
    const scopes = optionalScopes(options.scopes, 'scopes')
    const clientAuthentication = await this.#clientAuthentication(clientId, options)
    return this.#explainingUnsentSecret(clientAuthentication, options, async () =>
      refreshAccessToken({
        ...this.#context.transport(options.signal),
        tokenEndpoint: await this.#discovery.tokenEndpoint(options.signal),
        refreshToken,
        scopes: usableScopes(scopes),
        clientAuthentication,
        heldSecrets,
        now,
      }),
    )
  }

  async requestBackendToken(input: RequestBackendTokenOptions | undefined): Promise<TokenResponse> {
    const [{ requestBackendToken }, signing] = await Promise.all([
      this.#signingModule(),
      this.#signing(),
    ])
    return requestBackendToken(
      this.#context,
      this.#discovery,
      signing,
      input,
      this.#backendServices,
    )
  }

  async registerClient(
    metadata: Readonly<Record<string, unknown>>,
    input: SmartRegistrationOptions | undefined,
  ): Promise<RegistrationResponse> {
    const { registerClient } = await this.#registrationModule()
    return registerClient(this.#context, this.#discovery, metadata, input)
  }

  async cancelRegistration(): Promise<never> {
    // The refusal lives with registration, loaded on demand: no app-launch bundle carries it.
    const { cancelRegistration } = await this.#registrationModule()
    return cancelRegistration()
  }

  /**
   * RFC 7009 §2.1: the refresh token first (a server may then revoke the whole grant), then the
   * access token, each with the client's authentication; nothing without an advertised
   * `revocation_endpoint`.
   */
  async revokeTokens(tokens: TokenSet, signal: AbortSignal | undefined): Promise<boolean> {
    const revocationEndpoint = await this.#discovery.revocationEndpoint(signal)
    if (revocationEndpoint === undefined) return false
    const clientId = requireNonBlankString(this.#context.config.clientId, 'clientId', false)
    const clientAuthentication = await this.#clientAuthentication(clientId, {})
    const { accessToken, refreshToken, idToken } = tokens
    const revoke = (token: string, tokenTypeHint: RevokedTokenType) =>
      revokeToken({
        ...this.#context.transport(signal),
        revocationEndpoint,
        token,
        tokenTypeHint,
        clientAuthentication,
        heldSecrets: [accessToken, refreshToken, idToken].filter(Boolean) as string[],
        now: this.#context.options.now,
      })
    if (refreshToken !== undefined) await revoke(refreshToken, 'refresh_token')
    await revoke(accessToken, 'access_token')
    return true
  }

  /**
   * The scopes in the syntax `ClientOptions.scopeVersion` asks for (as written by default, with
   * nothing loaded); used by launches and, through the signing chunk, backend tokens.
   */
  async #scopesToSend(
    scopes: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<readonly string[]> {
    const { scopeVersion = 'as-configured', logger } = this.#context.options
    if (scopeVersion === 'as-configured') return scopes
    const { scopesInVersion } = await this.#scopeVersion()
    return scopesInVersion(
      scopes,
      scopeVersion,
      async () => (await this.#discovery.metadata(signal)).capabilities,
      logger,
    )
  }

  tokenEndpoint(options: { readonly signal?: AbortSignal | undefined }): Promise<string> {
    return this.#discovery.tokenEndpoint(options.signal)
  }

  #contextParts() {
    const { config, options } = this.#context
    return { config, logger: options.logger, now: options.now }
  }

  /**
   * Runs a token request; a public client's `invalid_client` says when a `clientSecret` was
   * configured or given but, the client being public, not sent.
   */
  async #explainingUnsentSecret(
    clientAuthentication: ClientAuthentication,
    overrides: Partial<CredentialOverrides>,
    request: () => Promise<TokenResponse>,
  ): Promise<TokenResponse> {
    try {
      return await request()
    } catch (error) {
      const secretGiven =
        this.#context.config.clientSecret !== undefined || overrides.clientSecret !== undefined
      if (clientAuthentication.type !== 'public' || !secretGiven) throw error
      // Loaded only for this mistake; should the code fail to load, the server's error stands.
      throw await this.#unsentSecretHint().then(
        ({ withUnsentSecretHint }) => withUnsentSecretHint(error),
        () => error,
      )
    }
  }

  async #clientAuthentication(
    clientId: string,
    overrides: Partial<CredentialOverrides>,
  ): Promise<ClientAuthentication> {
    switch (this.#clientType) {
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
