import { ConfigurationError } from '@fhir-auth/core/essentials'
import { isNonBlankString, requireNonBlankString, usableScopes } from '@fhir-auth/core/internal'
import {
  buildAuthorizationExtensions,
  cancelUdapRegistration,
  createSoftwareStatement,
  exchangeUdapAuthorizationCode,
  normalizeRegistrationMetadata,
  type RegistrationResponse,
  refreshUdapAccessToken,
  registerUdapClient,
  requestUdapClientCredentialsToken,
  requireAuthorizationExtensions,
  type TokenResponse,
  type UdapMetadata,
  type UdapTokenRequestCommon,
} from '@fhir-auth/udap'
import type { OpenIdProviderHint } from '../identity/openid-provider.js'
import type {
  AuthorizationUrlOptions,
  AuthorizationUrlResult,
  BackendTokensOptions,
  RefreshTokenOptions,
  RequestAccessTokenOptions,
  RequestBackendTokenOptions,
  UdapRegistrationOptions,
  UdapTrustOptions,
} from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import type {
  AuthorizationIssuer,
  ProtocolImplementation,
  StartedAuthorization,
} from '../protocol-implementation.js'
import type { BackendTokenIdentity } from '../tokens/backend-token-identity.js'
import { startUdapAuthorization } from './udap-authorization.js'
import { readTrustOptions, UdapDiscoveryCache } from './udap-discovery-cache.js'
import { UdapSigning } from './udap-signing.js'

export type { UdapMetadata }

/** Per-call credentials of SMART that a UDAP client refuses rather than ignores. */
const smartCredentials = ['clientSecret', 'privateKey', 'kid'] as const

/**
 * The UDAP Security STU2 implementation behind a `Client` with `protocol: 'udap'`. Internal:
 * built lazily by `Client` (and loaded as its own chunk, so SMART-only bundles never carry it).
 *
 * State it keeps for its client: validated metadata per community and trust inputs, its checked
 * signing identity, and (in the context) the `client_id` and client URI of a registration made
 * through it, which later authentication tokens and authorization requests use in place of the
 * configured `clientId` (IG STU2: after a new `client_id`, only the new one). The flows of DESIGN
 * §10: client credentials (`b2b` only) and the authorization code (every flow), both
 * authenticated by UDAP authentication tokens.
 *
 * @internal
 */
export class UdapProtocol implements ProtocolImplementation {
  readonly #context: ProtocolContext
  readonly #discovery: UdapDiscoveryCache
  readonly #signing: UdapSigning

  constructor(context: ProtocolContext) {
    this.#context = context
    this.#discovery = new UdapDiscoveryCache(context)
    this.#signing = new UdapSigning(context)
  }

  async serverMetadata(
    input: (Partial<UdapTrustOptions> & { readonly signal?: AbortSignal | undefined }) | undefined,
  ): Promise<UdapMetadata> {
    const options = this.#context.readOptions(input, 'serverMetadata')
    return this.#discovery.metadata(options, options.signal)
  }

  async authorizationUrl(
    input: AuthorizationUrlOptions | undefined,
  ): Promise<AuthorizationUrlResult> {
    const { authUrl, state, codeVerifier, params, nonce } = await this.startAuthorization(input)
    return {
      authUrl,
      state,
      codeVerifier,
      ...(params === undefined ? {} : { params }),
      ...(nonce === undefined ? {} : { nonce }),
    }
  }

  startAuthorization(input: AuthorizationUrlOptions | undefined): Promise<StartedAuthorization> {
    return startUdapAuthorization(
      this.#context,
      (options) => this.#metadataFor(options, this.#context.config.authorizationEndpoint),
      input,
    )
  }

  async requestAccessToken(input: RequestAccessTokenOptions): Promise<TokenResponse> {
    const options = this.#context.readOptions(input, 'requestAccessToken')
    const { config, logger } = this.#parts()
    logger.info(
      'Requesting access token using authorization code and a UDAP authentication token',
      {
        event: 'udap.token.authorization_code',
      },
    )
    refuseSmartCredentials(options)
    const issuer = this.#requireClientId()
    const code = requireNonBlankString(options.code, 'code')
    const codeVerifier = requireNonBlankString(options.codeVerifier, 'codeVerifier')
    const redirectUri = requireNonBlankString(config.redirectUri, 'redirectUri', false)
    return exchangeUdapAuthorizationCode({
      ...(await this.#tokenRequest(issuer, options)),
      code,
      codeVerifier,
      redirectUri,
    })
  }

  async refreshToken(
    input: RefreshTokenOptions,
    heldSecrets?: readonly string[],
  ): Promise<TokenResponse> {
    const options = this.#context.readOptions(input, 'refreshToken')
    this.#parts().logger.info('Refreshing access token with a UDAP authentication token', {
      event: 'udap.token.refresh',
    })
    refuseSmartCredentials(options)
    const issuer = this.#requireClientId()
    const refreshToken = requireNonBlankString(options.refreshToken, 'refreshToken')
    const scopes = this.#context.checks.optionalScopes(options.scopes, 'scopes')
    return refreshUdapAccessToken({
      ...(await this.#tokenRequest(issuer, options)),
      refreshToken,
      scopes: usableScopes(scopes),
      heldSecrets,
    })
  }

  async registerClient(
    metadata: Readonly<Record<string, unknown>>,
    input: UdapRegistrationOptions | undefined,
  ): Promise<RegistrationResponse> {
    this.#context.options.logger.info('Registering client via UDAP Dynamic Client Registration', {
      event: 'udap.registration',
    })
    return this.#register(metadata, input, 'register')
  }

  async cancelRegistration(
    metadata: Readonly<Record<string, unknown>>,
    input: UdapRegistrationOptions,
  ): Promise<RegistrationResponse> {
    this.#context.options.logger.info(
      'Cancelling client registration via UDAP Dynamic Client Registration',
      {
        event: 'udap.cancellation',
      },
    )
    return this.#register(metadata, input, 'cancel')
  }

  async requestBackendToken(input: RequestBackendTokenOptions | undefined): Promise<TokenResponse> {
    this.#context.checks.checkClientCredentialsFlow(this.#context.flow, 'requestBackendToken')
    const options = this.#context.readOptions(input, 'requestBackendToken')
    const { config, logger, now } = this.#parts()
    logger.info(
      'Requesting access token with a UDAP authentication token (client_credentials grant)',
      {
        event: 'udap.token.client_credentials',
      },
    )
    const scopes = usableScopes(
      this.#context.checks.optionalScopes(options.scopes, 'scopes') ?? config.scopes,
    )
    if (scopes === undefined) {
      throw new ConfigurationError({
        invalidAttribute: 'scopes',
        message:
          'scopes are required for a UDAP client_credentials request: configure scopes or pass them',
      })
    }
    const explicitClientUri = this.#context.checks.optionalString(options.clientUri, 'clientUri')
    // Registered flow: iss = sub = client_id. Unregistered flow (no client_id known): the client URI.
    const clientId = this.#context.clientId()
    const issuer = clientId ?? explicitClientUri
    if (!isNonBlankString(issuer)) {
      throw new ConfigurationError({
        invalidAttribute: 'clientId',
        message:
          'a UDAP token request needs a client_id (configure clientId or register first) or, for the unregistered-client flow, a clientUri',
      })
    }
    const signingUri =
      explicitClientUri ??
      (clientId === undefined ? undefined : this.#context.registration?.clientUri)
    await this.#signing.check(signingUri)
    const metadata = await this.#tokenMetadata(options)
    const tokenEndpoint = config.tokenEndpoint ?? metadata?.tokenEndpoint
    if (tokenEndpoint === undefined)
      throw new ConfigurationError({ invalidAttribute: 'tokenEndpoint' })
    // Built here only to check them against the server's list before any token request; the
    // token request builds them again from the same inputs.
    requireAuthorizationExtensions(
      metadata?.udapAuthorizationExtensionsRequired ?? [],
      buildAuthorizationExtensions(options),
    )
    const signer = await this.#signing.signer(
      signingUri,
      metadata?.tokenEndpointAuthSigningAlgValuesSupported ?? [],
    )
    return requestUdapClientCredentialsToken({
      ...this.#context.transport(options.signal),
      tokenEndpoint,
      issuer,
      signer,
      scopes,
      b2b: options.b2b,
      b2bUser: options.b2bUser,
      extensions: options.extensions,
      now,
    })
  }

  async backendTokenIdentity(input: BackendTokensOptions): Promise<BackendTokenIdentity> {
    const options = this.#context.readOptions(input, 'backendTokens')
    const { config } = this.#parts()
    const scopes = usableScopes(
      this.#context.checks.optionalScopes(options.scopes, 'scopes') ?? config.scopes,
    )
    const clientUri = this.#context.checks.optionalString(options.clientUri, 'clientUri')
    const registeredId = this.#context.clientId()
    const clientId = registeredId ?? clientUri
    // ADR 0004: a bad own chain is refused before anything is sent, discovery included, as
    // requestBackendToken does.
    await this.#signing.check(
      clientUri ?? (registeredId === undefined ? undefined : this.#context.registration?.clientUri),
    )
    const metadata = await this.#tokenMetadata(options)
    const tokenEndpoint = config.tokenEndpoint ?? metadata?.tokenEndpoint
    // Missing parts are left for the token request itself to report, in its own words.
    return {
      tokenEndpoint: tokenEndpoint ?? '',
      clientId: clientId ?? '',
      scopes: scopes ?? [],
      context: backendTokenContext(options),
    }
  }

  /**
   * A UDAP server is named by its base URL: the `iss` of its signed metadata, and of its ID
   * tokens. UDAP does not ask servers for RFC 9207's `iss`; one that is sent must be this, and
   * metadata that advertises `authorization_response_iss_parameter_supported` (signed, else
   * unsigned) makes it required. That metadata is the one the trust inputs given validate, else
   * the one this client validated last (even expired: it can only make the check stricter, and
   * the code exchange refuses to reuse it). The client's own chain is checked before that
   * discovery, as before every signed request: a bad one sends nothing at all.
   *
   * @see https://www.rfc-editor.org/rfc/rfc9207#section-2.4 RFC 9207 §2.4
   */
  async authorizationIssuer(
    signal?: AbortSignal,
    { trust }: { readonly trust?: Partial<UdapTrustOptions> | undefined } = {},
  ): Promise<AuthorizationIssuer> {
    let metadata = this.#discovery.latest
    if (hasTrustInputs(trust)) {
      await this.#signing.check(this.#context.registration?.clientUri)
      metadata = await this.#discovery.metadata(trust, signal)
    }
    return {
      issuer: this.#context.config.issuer,
      issRequired: metadata?.authorizationResponseIssParameterSupported === true,
    }
  }

  /**
   * UDAP metadata names no OpenID provider: ID tokens (this server's, or — for a data holder in
   * Tiered OAuth — the identity provider's, which is then this client's server) are checked with
   * the keys of `{issuer}/.well-known/openid-configuration`, read when the first one arrives.
   */
  async openIdProvider(): Promise<OpenIdProviderHint> {
    return { issuer: this.#context.config.issuer, jwksUri: undefined, algorithms: undefined }
  }

  async #register(
    metadata: Readonly<Record<string, unknown>>,
    input: UdapRegistrationOptions | undefined,
    operation: 'register' | 'cancel',
  ): Promise<RegistrationResponse> {
    const options = this.#context.readOptions(
      input,
      operation === 'register' ? 'registerClient' : 'cancelRegistration',
    )
    const { config, now } = this.#parts()
    if (!isNonBlankString(options.clientUri)) {
      throw new ConfigurationError({
        invalidAttribute: 'clientUri',
        message:
          'clientUri is required: the URI SAN of your certificate that identifies this client',
      })
    }
    const clientUri = options.clientUri
    const certifications = readCertifications(options.certifications)
    readTrustOptions(options)
    // Everything the client can check on its own is checked before any request.
    const claims = normalizeRegistrationMetadata(metadata, {
      operation,
      allowInsecureLocalhost: config.allowInsecureLocalhost,
    })
    await this.#signing.check(clientUri)
    const serverMetadata = await this.#discovery.metadata(options, options.signal)
    const signer = await this.#signing.signer(
      clientUri,
      serverMetadata.registrationEndpointJwtSigningAlgValuesSupported,
    )
    const softwareStatement = await createSoftwareStatement({
      claims,
      clientUri,
      registrationEndpoint: serverMetadata.registrationEndpoint,
      signer,
      now,
    })
    const request = {
      ...this.#context.transport(options.signal),
      registrationEndpoint: serverMetadata.registrationEndpoint,
      softwareStatement,
      certifications,
    }
    if (operation === 'cancel') {
      const response = await cancelUdapRegistration(request)
      if (this.#context.registration?.clientId === response.client_id) {
        this.#context.registration = undefined
      }
      return response
    }
    const response = await registerUdapClient(request)
    const previous = this.#context.clientId()
    this.#context.registration = { clientId: response.client_id, clientUri }
    if (previous !== undefined && previous !== response.client_id) {
      // Client ids are no secrets; the software statement and keys are never logged.
      this.#context.options.logger.info(
        `UDAP registration answered with client_id ${JSON.stringify(response.client_id)} in place of ${JSON.stringify(previous)}: this client uses only the new one from now on`,
        {
          event: 'udap.registration.client_id_changed',
          previousClientId: previous,
          clientId: response.client_id,
        },
      )
    }
    return response
  }

  /** Metadata for a token request: trust inputs given now, else what this client validated before. */
  #tokenMetadata(
    options: Partial<UdapTrustOptions> & { readonly signal?: AbortSignal | undefined },
  ): Promise<UdapMetadata | undefined> {
    return this.#metadataFor(options, this.#context.config.tokenEndpoint)
  }

  /**
   * Trusted metadata for an operation: validated now with the trust inputs given, else what this
   * client validated before while that validation holds; none when the endpoint the operation
   * needs is configured and nothing was validated.
   *
   * @throws ConfigurationError naming the trust inputs when there is nothing to use, or when
   *   what was validated before has expired.
   */
  async #metadataFor(
    options: Partial<UdapTrustOptions> & { readonly signal?: AbortSignal | undefined },
    configuredEndpoint: string | undefined,
  ): Promise<UdapMetadata | undefined> {
    if (hasTrustInputs(options)) return this.#discovery.metadata(options, options.signal)
    const earlier = this.#discovery.reusable()
    if (earlier !== undefined) return earlier
    if (configuredEndpoint !== undefined) return undefined
    // Neither configured nor validated: discovery needs trust inputs (this throws naming them).
    return this.#discovery.metadata(options, options.signal)
  }

  /** The `client_id` an authorization-code client authenticates as: configured, else registered. */
  #requireClientId(): string {
    const clientId = this.#context.clientId()
    if (clientId !== undefined) return clientId
    throw new ConfigurationError({
      invalidAttribute: 'clientId',
      message: 'a UDAP token request needs a client_id: configure clientId or register first',
    })
  }

  /**
   * What a code or refresh request is authenticated with: the signing identity checked first
   * (it needs no server), then the token endpoint from trusted metadata and a signer for its
   * algorithms. No `extensions` (IG STU2: omitted for authorization_code).
   */
  async #tokenRequest(
    issuer: string,
    options: Partial<UdapTrustOptions> & { readonly signal?: AbortSignal | undefined },
  ): Promise<UdapTokenRequestCommon> {
    const signingUri = this.#context.registration?.clientUri
    await this.#signing.check(signingUri)
    const metadata = await this.#tokenMetadata(options)
    const tokenEndpoint = this.#context.config.tokenEndpoint ?? metadata?.tokenEndpoint
    if (tokenEndpoint === undefined)
      throw new ConfigurationError({ invalidAttribute: 'tokenEndpoint' })
    const signer = await this.#signing.signer(
      signingUri,
      metadata?.tokenEndpointAuthSigningAlgValuesSupported ?? [],
    )
    return {
      ...this.#context.transport(options.signal),
      tokenEndpoint,
      issuer,
      signer,
      now: this.#context.options.now,
    }
  }

  /**
   * UDAP Security STU2 defines no revocation endpoint in `.well-known/udap`, so a UDAP session's
   * `revoke()` ends it here only: nothing is sent, and it resolves `false`.
   */
  async revokeTokens(): Promise<boolean> {
    this.#context.options.logger.info(
      'UDAP metadata names no revocation endpoint: the session ends here, nothing is revoked',
      { event: 'udap.token.revocation_unavailable' },
    )
    return false
  }

  /**
   * The token endpoint a refresh would use, for a session's binding check. The signing identity
   * is checked first, as before every signed request: a bad own chain sends nothing, not even
   * the discovery this may need.
   */
  async tokenEndpoint(
    options: Partial<UdapTrustOptions> & { readonly signal?: AbortSignal | undefined },
  ): Promise<string> {
    await this.#signing.check(this.#context.registration?.clientUri)
    const metadata = await this.#tokenMetadata(options)
    const tokenEndpoint = this.#context.config.tokenEndpoint ?? metadata?.tokenEndpoint
    if (tokenEndpoint === undefined)
      throw new ConfigurationError({ invalidAttribute: 'tokenEndpoint' })
    return tokenEndpoint
  }

  #parts() {
    const { config, options } = this.#context
    return { config, logger: options.logger, now: options.now }
  }
}

/**
 * What a backend token is asked for beyond endpoint, client and scopes: every authorization
 * extension (UDAP STU2 §5.2.1.1: a token may be used only in the context it was asked for). A
 * request with `b2b` alone keeps the context it always had, so the entries a fleet already
 * shares are still found.
 */
function backendTokenContext(options: BackendTokensOptions): unknown {
  const { b2b, b2bUser, extensions } = options
  if (b2bUser === undefined && extensions === undefined) return b2b ?? null
  return { b2b, b2bUser, extensions }
}

/** Whether an operation was given trust inputs (then it validates metadata with them). */
function hasTrustInputs(options: Partial<UdapTrustOptions> | undefined): boolean {
  return (
    options?.trustedAnchors !== undefined ||
    options?.crls !== undefined ||
    options?.revocation !== undefined
  )
}

/**
 * UDAP clients authenticate with authentication tokens signed by the configured key and chain
 * only: a client secret, or another key, is refused rather than silently ignored.
 *
 * @throws ConfigurationError on the credential given.
 */
function refuseSmartCredentials(options: Readonly<Record<string, unknown>>): void {
  for (const name of smartCredentials) {
    if (options[name] === undefined || options[name] === null) continue
    throw new ConfigurationError({
      invalidAttribute: name,
      message: `${name} is a SMART credential; a UDAP client authenticates with a UDAP authentication token signed by its configured privateKey and certificateChain`,
    })
  }
}

function readCertifications(value: unknown): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value
  throw new ConfigurationError({
    invalidAttribute: 'certifications',
    message: 'certifications must be an array of signed certification JWTs (compact JWS strings)',
  })
}
