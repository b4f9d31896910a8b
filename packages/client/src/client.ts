import type {
  ClientConfigInput,
  RegistrationResponse,
  TokenResponse,
  TokenSet,
} from '@fhir-auth/core/essentials'
import { lazy, lazyImport } from '@fhir-auth/core/internal/checks'
import { ClientConfig } from '@fhir-auth/core/internal/up-front'
import type { IdTokenClaims } from '@fhir-auth/core/oidc'
import type { SmartMetadata } from '@fhir-auth/smart'
import { type ClientOptions, readClientOptions, resolveClientOptions } from './client-options.js'
import {
  type ClientType,
  checkClientType,
  checkClientTypeKind,
  checkProtocol,
  type Protocol,
  resolveClientType,
} from './client-type.js'
import type { DiagnoseOptions, DiagnosticReport } from './diagnostics/diagnostic-report.js'
import { checkFlow, type UdapFlow } from './flow.js'
import { type CancellableOperation, untilAborted } from './loading-aborts.js'
import {
  type AuthorizationUrlOptions,
  type AuthorizationUrlResult,
  type BackendTokensOptions,
  type BeginAuthorizationOptions,
  type BeginAuthorizationResult,
  type CompleteAuthorizationOptions,
  type OperationName,
  operationOptionNames,
  type RefreshTokenOptions,
  type RequestAccessTokenOptions,
  type RequestBackendTokenOptions,
  type ResumeSessionOptions,
  type SmartRegistrationOptions,
  type TokenResponseCheckOptions,
  type UdapRegistrationOptions,
  type UdapTrustOptions,
  type ValidateIdTokenOptions,
} from './operation-options.js'
import { ProtocolContext } from './protocol-context.js'
import type { ProtocolImplementation } from './protocol-implementation.js'
import { optionalSeconds } from './seconds-option.js'
import type { Session } from './session/session.js'
import { createSession, readTokens } from './session/session-factory.js'
import type { SessionSource } from './session/session-source.js'
import { sessionStore } from './session/session-store.js'
import type { SessionStore, SessionStoreOptions } from './session/session-store-types.js'
import { optionalListener } from './session/tokens-listener.js'
import { checkTokenResponse } from './smart/token-response-guard.js'
import { BackendTokenRegistry } from './tokens/backend-token-registry.js'
import type { BackendTokens } from './tokens/backend-tokens.js'
import { trustInputsOf } from './trust-inputs.js'
import type { UdapMetadata } from './udap/udap-protocol.js'
import { warnOfUnsentClientSecret } from './unsent-client-secret.js'

/** Makes a protocol's implementation: at once, or once its code has loaded. */
type ImplementationFactory = (
  context: ProtocolContext,
) => ProtocolImplementation | Promise<ProtocolImplementation>

/** UDAP's implementation: a chunk of its own, loaded by a UDAP client's first operation. */
const udapProtocol = lazyImport(() => import('./udap/udap-protocol.js'))
const smartProtocol = lazyImport(() => import('./smart/smart-protocol.js'))

/**
 * How each protocol's implementation is made, on a client's first operation: each is a chunk of
 * its own, so that what an app loads before it does anything holds no request code (ADR 0012)
 * and SMART-only bundles never carry UDAP.
 */
const implementations: Readonly<Record<Protocol, ImplementationFactory>> = {
  smart: (context) => smartProtocol().then(({ SmartProtocol }) => new SmartProtocol(context)),
  udap: (context) => udapProtocol().then(({ UdapProtocol }) => new UdapProtocol(context)),
}

/**
 * Launches (`beginAuthorization`, `completeAuthorization`): loaded on the first one, so apps that
 * call the spec's two steps themselves, and backend services, never download them.
 */
const authorizationFlow = lazyImport(() => import('./launch/authorization-flow.js'))

/** `diagnose`: a chunk of its own, which no app loads unless it asks for a diagnosis. */
const diagnostics = lazyImport(() => import('./diagnostics/diagnose.js'))

/** ID token validation (with the OIDC code): loaded with the first ID token to check. */
const idTokenValidator = lazyImport(() => import('./identity/id-token-validator.js'))

/**
 * The fhir-auth client: one object per authorization server relationship, speaking SMART App
 * Launch 2.2.0 (`protocol: 'smart'`, the default) or UDAP Security STU2 (`protocol: 'udap'`).
 *
 * Construction does no I/O. Each operation delegates to a protocol implementation built lazily
 * on first use; SMART discovery is fetched once and cached for the life of that implementation,
 * and a failed discovery is retried by the next call.
 *
 * Parts of the client load on demand (launches, signing, ID token validation, UDAP). Besides the
 * errors each operation names, any operation may reject with an `HttpError` (`network`, empty
 * `url`) when such a part cannot be loaded — in a browser, a chunk a new deployment removed. The
 * next call tries the load again. A caller's `signal` also ends the wait for a part still
 * loading: the operation rejects at once with its abort error (a `DiscoveryError`, `TokenError`,
 * `RegistrationError` or `IdTokenError` whose `cause` is an `HttpError` with reason `aborted`),
 * and nothing is sent. `timeoutMs` applies from the operation's first request.
 *
 * Each operation's options object takes the names its options type declares: any other own
 * member is a `ConfigurationError` on that name ("unknown option", listing the valid ones).
 *
 * @example
 * ```ts
 * const client = new Client({
 *   baseUrl: 'https://ehr.example.org/fhir',
 *   clientId: 'my-app',
 *   redirectUri: 'https://app.example.org/callback',
 *   scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser'],
 * })
 * const { authUrl, state, codeVerifier } = await client.authorizationUrl()
 * ```
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/client/README.md
 */
export class Client {
  readonly #config: ClientConfig
  readonly #protocol: Protocol
  readonly #context: ProtocolContext
  readonly #make: ImplementationFactory
  #made: ProtocolImplementation | Promise<ProtocolImplementation> | undefined
  /** What sessions and launches use of this client (made with it, shared by all of them). */
  readonly #sessions: SessionSource<Session>
  readonly #backendTokens: BackendTokenRegistry

  /**
   * @param config a `ClientConfig` or a plain object of its attributes.
   * @param options protocol, client type and the injectable parts (crypto, fetch, timeout, logger, clock).
   * @throws ConfigurationError for an invalid configuration, and — in the spec's order — a
   *   client type that is not a string, an unknown protocol, or a client type invalid for it;
   *   then a `flow` that is not `b2b`, `b2c` or `tiered_oauth` (UDAP) or any `flow` (SMART).
   */
  constructor(config: ClientConfig | ClientConfigInput, options?: ClientOptions) {
    this.#config = ClientConfig.from(config)
    const raw = readClientOptions(options)
    // Spec order: client_type kind, protocol, default client type, client_type value.
    checkClientTypeKind(raw.clientType)
    const protocol = checkProtocol(raw.protocol ?? 'smart')
    const clientType = resolveClientType(protocol, raw.clientType)
    const flow = checkFlow(protocol, raw.flow)
    this.#protocol = protocol
    this.#context = new ProtocolContext(this.#config, resolveClientOptions(raw), clientType, flow)
    warnOfUnsentClientSecret(this.#context, raw.clientType)
    this.#make = implementations[protocol]
    const implementation = () => this.#call((made) => Promise.resolve(made))
    const context = this.#context
    const validator = lazy(() =>
      idTokenValidator().then(({ clientIdTokenValidator }) =>
        clientIdTokenValidator(context, implementation),
      ),
    )
    const sessions: SessionSource<Session> = {
      context,
      implementation,
      identity: {
        validate: async (idToken, check) => (await validator()).validate(idToken, check),
      },
      open: (tokens, onTokens, trust) => createSession(sessions, tokens, onTokens, trust),
      revoke: async (tokens) => (await implementation()).revokeTokens(tokens, undefined),
    }
    this.#sessions = sessions
    this.#backendTokens = new BackendTokenRegistry(context, implementation)
  }

  /** The resolved, frozen configuration. */
  get config(): ClientConfig {
    return this.#config
  }

  /** `'smart'` or `'udap'`. */
  get protocol(): Protocol {
    return this.#protocol
  }

  /** The SMART client type; `null` for UDAP. */
  get clientType(): ClientType | null {
    return this.#context.clientType
  }

  /** The UDAP flow (`'b2b'`, `'b2c'` or `'tiered_oauth'`; `'b2b'` by default); `null` for SMART. */
  get flow(): UdapFlow | null {
    return this.#context.flow
  }

  /**
   * The `client_id` in use: the configured `clientId`, or — on UDAP, once this client has
   * registered — the one its last registration or modification answered with (IG STU2: the
   * client SHALL use only the new one).
   *
   * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#modifying-and-cancelling-registrations
   */
  get clientId(): string | undefined {
    return this.#context.clientId()
  }

  /**
   * Changes a SMART client's type. An implementation already built is updated in place: its
   * fetched server metadata is kept and no new discovery happens. An operation reads the type when
   * it starts its work, so a client's first operation, whose implementation may still be loading,
   * can see an assignment made after the call.
   *
   * @throws ConfigurationError `clientType` for an invalid value, and for any value on a UDAP client.
   */
  set clientType(value: ClientType) {
    this.#context.clientType = checkClientType(this.#protocol, value)
  }

  /**
   * UDAP: fetches `.well-known/udap` and validates `signed_metadata` against the given trust
   * anchors and CRLs; the result is cached per community and trust inputs.
   *
   * @throws DiscoveryError naming the reason when anything fails (fail closed).
   */
  serverMetadata(
    options: UdapTrustOptions & { readonly signal?: AbortSignal },
  ): Promise<UdapMetadata>
  /**
   * SMART: fetches (once) and returns the `.well-known/smart-configuration` document.
   *
   * @throws DiscoveryError when the request fails or the document is not a JSON object.
   */
  serverMetadata(options?: { readonly signal?: AbortSignal | undefined }): Promise<SmartMetadata>
  async serverMetadata(
    options?: UdapTrustOptions & { readonly signal?: AbortSignal },
  ): Promise<SmartMetadata | UdapMetadata> {
    return this.#run('serverMetadata', options, (checked) =>
      this.#call((implementation) => implementation.serverMetadata(checked)),
    )
  }

  /**
   * Builds an authorization request (SMART EHR or standalone launch; UDAP authorization code,
   * with the signed `authorization_endpoint` and, in Tiered OAuth, `idp`) with a fresh `state`
   * and PKCE verifier. GET gives a redirect URL; POST gives the bare endpoint plus form `params`.
   *
   * @throws ConfigurationError in the spec's order: `method`, `clientId`, `scopes`, `redirectUri`,
   *   `authorizationEndpoint` (neither configured nor discoverable); UDAP also `launch`, `idp`,
   *   the trust inputs.
   * @throws DiscoveryError when discovery fails or the discovered endpoint is not usable HTTPS
   *   (UDAP: when `signed_metadata` does not validate).
   * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/udap.md
   */
  async authorizationUrl(options?: AuthorizationUrlOptions): Promise<AuthorizationUrlResult> {
    return this.#run('authorizationUrl', options, (checked) =>
      this.#call((implementation) => implementation.authorizationUrl(checked)),
    )
  }

  /**
   * Exchanges an authorization code (with its PKCE verifier) for tokens, authenticating as the
   * client type says (UDAP: with a UDAP authentication token; trust inputs optional when this
   * client validated the server's metadata before).
   *
   * @throws ConfigurationError for a missing `clientId` or credential; TokenError for every failed exchange.
   */
  async requestAccessToken(options: RequestAccessTokenOptions): Promise<TokenResponse> {
    return this.#run('requestAccessToken', options, (checked) =>
      this.#call((implementation) =>
        implementation.requestAccessToken(checked as RequestAccessTokenOptions),
      ),
    )
  }

  /**
   * Refreshes an access token (UDAP: authenticated by a fresh UDAP authentication token). Without
   * `scopes` the original grant's scopes are requested. When the server returns no new refresh
   * token, the result carries the one sent.
   *
   * @throws ConfigurationError for a missing `clientId` or credential; TokenError for every failed exchange.
   */
  async refreshToken(options: RefreshTokenOptions): Promise<TokenResponse> {
    return this.#run('refreshToken', options, (checked) =>
      this.#call((implementation) => implementation.refreshToken(checked as RefreshTokenOptions)),
    )
  }

  /**
   * SMART Backend Services (client credentials with a signed assertion), or for UDAP a
   * client-credentials request with a UDAP authentication token (`hl7-b2b` when `b2b` is given).
   *
   * @throws ConfigurationError for missing `clientId`, key or `kid`, and on `flow` for a UDAP
   *   `b2c` or `tiered_oauth` client; TokenError for every failed exchange.
   */
  async requestBackendToken(options?: RequestBackendTokenOptions): Promise<TokenResponse> {
    return this.#run('requestBackendToken', options, (checked) =>
      this.#call((implementation) => implementation.requestBackendToken(checked)),
    )
  }

  /** SMART: RFC 7591 dynamic registration. */
  registerClient(
    metadata: Readonly<Record<string, unknown>>,
    options?: SmartRegistrationOptions,
  ): Promise<RegistrationResponse>
  /** UDAP: signed dynamic registration (or modification) with a software statement. */
  registerClient(
    metadata: Readonly<Record<string, unknown>>,
    options: UdapRegistrationOptions,
  ): Promise<RegistrationResponse>
  async registerClient(
    metadata: Readonly<Record<string, unknown>>,
    options?: SmartRegistrationOptions | UdapRegistrationOptions,
  ): Promise<RegistrationResponse> {
    return this.#run('registerClient', options, (checked) =>
      this.#call((implementation) =>
        implementation.registerClient(metadata, checked as UdapRegistrationOptions),
      ),
    )
  }

  /**
   * UDAP: cancels the registration (a software statement with `grant_types: []`); the response
   * must echo an empty `grant_types`.
   *
   * @throws ConfigurationError for a SMART client (there is no SMART cancellation); RegistrationError otherwise.
   */
  async cancelRegistration(
    metadata: Readonly<Record<string, unknown>>,
    options: UdapRegistrationOptions,
  ): Promise<RegistrationResponse> {
    return this.#run('cancelRegistration', options, (checked) =>
      this.#call((implementation) =>
        implementation.cancelRegistration(metadata, checked as UdapRegistrationOptions),
      ),
    )
  }

  /**
   * `authorizationUrl`, and the launch kept for its callback: with a `store`, under a key
   * derived from `state` for 600 s (so many servers, tabs and processes can launch at once);
   * without one, `codeVerifier` and `nonce` come back for the caller to keep. A fresh `nonce` is
   * sent whenever the scopes include `openid`.
   *
   * @throws ConfigurationError as `authorizationUrl` does, and on `store`; StoreError when the
   *   store refuses the launch (do not redirect then).
   * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/tokens-over-time.md
   */
  async beginAuthorization(options?: BeginAuthorizationOptions): Promise<BeginAuthorizationResult> {
    return this.#run('beginAuthorization', options, (checked) => {
      this.#prepare()
      return authorizationFlow().then((flow) => flow.beginAuthorization(this.#sessions, checked))
    })
  }

  /**
   * Finishes a launch from its callback URL and returns a {@link Session}. Checks, in order: an
   * `error` parameter (`AuthorizationError` with the server's fields), the `state` (a kept launch,
   * used once: unknown, expired or replayed is `state_mismatch`), RFC 9207 `iss`
   * (`iss_mismatch`), the `code` (`missing_code`); then exchanges the code and validates the ID
   * token when `openid` was asked. No token request is sent when a check fails.
   *
   * @param callbackUrl the URL the server redirected to (a string, a `URL`, or its query).
   * @param options the `store` given to `beginAuthorization`, or the `state`, `codeVerifier` (and
   *   `nonce`) kept by the caller. None on Node: the launch is in the process's default store,
   *   where `beginAuthorization` without a store keeps it (browsers have no default store).
   * @throws AuthorizationError, TokenError, IdTokenError, ConfigurationError, StoreError.
   */
  async completeAuthorization(
    callbackUrl: string | URL | URLSearchParams,
    options?: CompleteAuthorizationOptions,
  ): Promise<Session> {
    return this.#run('completeAuthorization', options, (checked) => {
      this.#prepare()
      return authorizationFlow().then((flow) =>
        flow.completeAuthorization(this.#sessions, callbackUrl, checked),
      )
    })
  }

  /**
   * A session from tokens obtained earlier: a `TokenSet`, the string its `serialize()` made
   * (how an app persists a session), or a token response.
   *
   * @throws ConfigurationError on `tokens` when it is none of these.
   */
  resumeSession(
    tokens: TokenSet | TokenResponse | string,
    options?: ResumeSessionOptions,
  ): Session {
    const checked = this.#options(options, 'resumeSession')
    return createSession(
      this.#sessions,
      readTokens(tokens, this.#context),
      optionalListener(checked.onTokens),
      trustInputsOf(checked),
    )
  }

  /**
   * Validates an ID token against this server (OpenID Connect Core §3.1.3.7): signature with the
   * server's published key (algorithm pinned, never `none` or HMAC), `iss`, `aud`, `azp`, `exp`,
   * `iat`, and `nonce` / `auth_time` when asked.
   *
   * @returns the verified claims.
   * @throws IdTokenError with the `reason` of the first rule broken.
   */
  async validateIdToken(idToken: string, options?: ValidateIdTokenOptions): Promise<IdTokenClaims> {
    return this.#run('validateIdToken', options, (checked) =>
      this.#sessions.identity.validate(idToken, {
        nonce: checked.nonce,
        maxAgeSeconds: optionalSeconds(checked.maxAgeSeconds, 'maxAgeSeconds'),
        signal: checked.signal,
      }),
    )
  }

  /**
   * Checks this client's configuration against its SMART server before anything fails: discovery,
   * issuer binding, advertised client types, PKCE, the key (algorithm, strength, its JWKS), the
   * clock, the redirect URI and the scopes; with `tryToken`, a real `client_credentials` request
   * whose refusal is mapped to its likely causes. Each check is `pass`, `warn` or `fail`, with a
   * hint on what to change for every `warn` and `fail`; `ok` is false when one fails. The report
   * never holds a token, a client secret or key material.
   *
   * @throws ConfigurationError `protocol` for a UDAP client, or on the options.
   * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/troubleshooting.md
   */
  async diagnose(options?: DiagnoseOptions): Promise<DiagnosticReport> {
    return this.#run('diagnose', options, (checked) =>
      this.#call(async (implementation) =>
        (await diagnostics()).diagnose({
          context: this.#context,
          protocol: this.#protocol,
          server: implementation.diagnosticServer?.(),
          tryToken: checked.tryToken === true,
          signal: checked.signal,
          requestBackendToken: () => this.requestBackendToken({ signal: checked.signal }),
        }),
      ),
    )
  }

  /**
   * Backend access tokens that are reused (docs/guides/backend-services-at-scale.md): `accessToken()` returns a cached token
   * until it expires within `minValiditySeconds` (default 60); concurrent callers — in this
   * process, or in every process sharing `store` — share one token request. One cache entry per
   * token endpoint, client, scopes and `hl7-b2b` context.
   *
   * @throws ConfigurationError on the options (checked now; the rest on first use), and on
   *   `flow` for a UDAP `b2c` or `tiered_oauth` client (client credentials are `b2b`).
   * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/backend-services-at-scale.md
   */
  backendTokens(options?: BackendTokensOptions): BackendTokens {
    return this.#backendTokens.handle(options)
  }

  /**
   * Sessions a fleet shares (docs/guides/tokens-over-time.md): `save` keeps a session's tokens in
   * `store` under a new random id, and `open` gives it back in any process sharing the store,
   * refreshed once per expiry window for all of them (a rotated refresh token is never lost).
   *
   * @throws ConfigurationError on the options (checked now), and on `store` where there is no
   *   default (browsers).
   * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/tokens-over-time.md
   */
  sessions(options?: SessionStoreOptions): SessionStore {
    return sessionStore(this.#sessions, options)
  }

  /**
   * Checks a token response against SMART's rules (`access_token`, `scope`, `token_type`
   * Bearer, and `expires_in` for backend services) and the JSON type of every member
   * `TokenResponse` names. Logs one warning per violation and returns false if there is any;
   * true narrows `response` to `TokenResponse`. Never throws.
   *
   * @example
   * ```ts
   * if (client.isTokenResponseValid(body)) {
   *   const patient: string | undefined = body.patient
   * }
   * ```
   */
  isTokenResponseValid(
    response: unknown,
    options?: TokenResponseCheckOptions,
  ): response is TokenResponse {
    return checkTokenResponse(response, options, this.#context)
  }

  /** A summary safe to log: protocol, client type, UDAP flow and the redacted configuration. */
  toJSON(): Record<string, unknown> {
    return {
      protocol: this.#protocol,
      clientType: this.clientType,
      ...(this.flow === null ? {} : { flow: this.flow }),
      config: this.#config.toJSON(),
    }
  }

  /** Node's `util.inspect` shows the redacted summary. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Client ${JSON.stringify(this.toJSON(), null, 2)}`
  }

  /**
   * Reads the options object of a `Client` operation, once: its own members, each a name the
   * operation's options type declares (else a `ConfigurationError`, "unknown option"), and
   * `signal` an `AbortSignal`. What the operation's code reads later is this copy.
   */
  #options<T extends object>(input: T | undefined, operation: OperationName): Partial<T> {
    return this.#context.readOptions(input, operation, operationOptionNames[operation])
  }

  /**
   * Runs an operation with its options read (see `#options`); the caller's `signal` ends the wait
   * while the operation's code loads (the implementation's chunk, and the parts it loads itself).
   */
  #run<T extends object, R>(
    operation: CancellableOperation,
    input: T | undefined,
    work: (options: Partial<T>) => Promise<R>,
  ): Promise<R> {
    const options = this.#options(input, operation)
    return untilAborted(operation, { config: this.#config, options }, work(options))
  }

  /**
   * Starts making the protocol implementation while a launch loads its own code, so that a
   * browser fetches both chunks at once rather than one after the other. A failure is the
   * launch's to report, when it asks for the implementation.
   */
  #prepare(): void {
    this.#call(() => Promise.resolve()).catch(() => {})
  }

  /**
   * Runs an operation on the protocol implementation, made on first use. A made one runs in the
   * same tick; one still loading is awaited; a load that failed (a chunk a browser could not
   * fetch) is forgotten, so the next operation loads again.
   */
  #call<R>(operation: (implementation: ProtocolImplementation) => Promise<R>): Promise<R> {
    if (this.#made === undefined) {
      const made = this.#make(this.#context)
      this.#made = made
      if (made instanceof Promise) {
        made.then(
          (implementation) => {
            if (this.#made === made) this.#made = implementation
          },
          () => {
            if (this.#made === made) this.#made = undefined
          },
        )
      }
    }
    const implementation = this.#made
    return implementation instanceof Promise
      ? implementation.then(operation)
      : operation(implementation)
  }
}
