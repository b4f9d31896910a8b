import type {
  CertificateInput,
  CrlInput,
  KeyValueStore,
  PrivateKeyInput,
} from '@fhir-auth/core/essentials'
import { type OptionNameSet, optionNames } from '@fhir-auth/core/internal/checks'
import type {
  B2bExtensionInput,
  B2bUserExtensionInput,
  UdapRevocationOptions,
} from '@fhir-auth/udap'
import type { DiagnoseOptions } from './diagnostics/diagnostic-report.js'
import type { TokensListener } from './session/tokens-listener.js'

/** Every operation accepts a caller `AbortSignal`, combined with the client's timeout. */
export interface CancellableOptions {
  readonly signal?: AbortSignal | undefined
}

/**
 * Options of `client.serverMetadata`: SMART takes a `signal` only; UDAP also the trust inputs
 * `signed_metadata` is validated with.
 */
export interface ServerMetadataOptions extends CancellableOptions, Partial<UdapTrustOptions> {}

/**
 * Options of `client.authorizationUrl`. UDAP clients also take the trust inputs (for the signed
 * `authorization_endpoint`; without them, the metadata this client validated before) and, in the
 * `tiered_oauth` flow, `idp`.
 */
export interface AuthorizationUrlOptions extends CancellableOptions, Partial<UdapTrustOptions> {
  /** SMART: the EHR launch token (`launch` parameter); sent only when given. UDAP has none. */
  readonly launch?: string | undefined
  /** Replaces the configured scopes for this request. */
  readonly customScopes?: readonly string[] | undefined
  /** `'get'` (default): a redirect URL. `'post'`: the bare endpoint plus form `params` (authorize-post). */
  readonly method?: 'get' | 'post' | undefined
  /**
   * UDAP Tiered OAuth: the identity provider's base URL, sent as `idp` (with `udap` added to the
   * scopes). Required in the `tiered_oauth` flow unless the scopes are identity scopes only
   * (`openid`, `udap`, `profile`, `email`): then this client is a data holder and its `baseUrl`
   * the identity provider.
   */
  readonly idp?: string | undefined
}

/** The result of `client.authorizationUrl`. Store `state` and `codeVerifier` for the callback. */
export interface AuthorizationUrlResult {
  /** GET: the full authorization URL. POST: the bare authorization endpoint. */
  readonly authUrl: string
  readonly state: string
  readonly codeVerifier: string
  /** POST only: the parameters to submit as the form body. */
  readonly params?: Readonly<Record<string, string>>
  /** UDAP, when the scopes include `openid`: the `nonce` sent; keep it to check the ID token. */
  readonly nonce?: string
}

/** Per-call credentials; each defaults to the configured value. */
export interface CredentialOverrides {
  readonly clientSecret?: string | undefined
  readonly privateKey?: PrivateKeyInput | undefined
  readonly kid?: string | undefined
}

/**
 * Options of `client.requestAccessToken`. UDAP clients may pass the trust inputs (needed when
 * this client validated no metadata before, e.g. in another process than the authorization
 * request); the credential overrides are SMART's.
 */
export interface RequestAccessTokenOptions
  extends CredentialOverrides,
    CancellableOptions,
    Partial<UdapTrustOptions> {
  readonly code: string
  readonly codeVerifier: string
}

/** Options of `client.refreshToken` (UDAP: trust inputs as for `requestAccessToken`). */
export interface RefreshTokenOptions
  extends CredentialOverrides,
    CancellableOptions,
    Partial<UdapTrustOptions> {
  readonly refreshToken: string
  /** A reduced scope list; omitted, the original grant's scopes are requested. */
  readonly scopes?: readonly string[] | undefined
}

/**
 * UDAP trust inputs: the anchors the caller trusts, and how revocation is proved for every
 * certificate in the server's chain (required): `crls` given, else CRLs fetched from the
 * certificates' distribution points or OCSP answers from their responders (`revocation`, on by
 * default; CRLs, OCSP answers and fetched intermediates are cached in this client unless
 * `revocation.cache` names a store). `community` selects the trust community (`?community=`).
 */
export interface UdapTrustOptions {
  readonly trustedAnchors: readonly CertificateInput[]
  readonly crls?: readonly CrlInput[] | undefined
  readonly revocation?: UdapRevocationOptions | undefined
  readonly community?: string | undefined
}

/**
 * The `hl7-b2b` authorization extension of a UDAP client-credentials request: the fields of
 * `@fhir-auth/udap`'s `B2bExtensionInput`, which builds and checks it.
 */
export type B2bAuthorizationExtension = B2bExtensionInput

/** Options of `client.requestBackendToken` (SMART Backend Services, or UDAP client credentials). */
export interface RequestBackendTokenOptions extends CancellableOptions, Partial<UdapTrustOptions> {
  readonly scopes?: readonly string[] | undefined
  /** SMART: the signing key; defaults to the configured one. */
  readonly privateKey?: PrivateKeyInput | undefined
  /** SMART: the key id; defaults to the configured one. */
  readonly kid?: string | undefined
  /** UDAP: the `hl7-b2b` extension (required by B2B servers). */
  readonly b2b?: B2bAuthorizationExtension | undefined
  /**
   * UDAP: the `hl7-b2b-user` extension (`{ userPerson, purposeOfUse, consentPolicy?,
   * consentReference? }`), when the client acts for a person.
   */
  readonly b2bUser?: B2bUserExtensionInput | undefined
  /**
   * UDAP: further authorization extension objects by key (TEFCA's `tefca_ias`, a network's
   * own), JSON objects signed into the authentication token as given. An extension the server
   * lists in `udap_authorization_extensions_required` and not given is a `ConfigurationError` on
   * `extensions` before any token request; so is a value that is not a JSON object (an array, a
   * string) and the key `__proto__`, which would not reach the server as given.
   */
  readonly extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined
  /** UDAP unregistered-client flow: the client URI (a URI SAN of the certificate). */
  readonly clientUri?: string | undefined
}

/** Options of the SMART `client.registerClient`. */
export interface SmartRegistrationOptions extends CancellableOptions {
  /** The registration endpoint; defaults to the discovered `registration_endpoint`. */
  readonly registrationEndpoint?: string | undefined
  /** The full `Authorization` header value, e.g. `Bearer <initial access token>`. */
  readonly authorization?: string | undefined
}

/** Options of the UDAP `client.registerClient` and `client.cancelRegistration`. */
export interface UdapRegistrationOptions extends CancellableOptions, UdapTrustOptions {
  /** The client URI: `iss`/`sub` of the software statement; must be a URI SAN of the leaf certificate. */
  readonly clientUri: string
  /** Signed certification JWTs to send with the registration. */
  readonly certifications?: readonly string[] | undefined
}

/** Options of `client.isTokenResponseValid`. */
export interface TokenResponseCheckOptions {
  readonly flow?: 'app_launch' | 'backend_services' | undefined
}

/** Options of `client.beginAuthorization`: `authorizationUrl`'s, plus where the launch is kept. */
export interface BeginAuthorizationOptions extends AuthorizationUrlOptions {
  /**
   * Where the launch waits for its callback (keyed by `state`, for 600 s): `memoryStore()` in a
   * server, `webStorageStore(sessionStorage)` in a browser, a shared store for several processes.
   * Without one, the result carries `codeVerifier` (and `nonce`) for the caller to keep.
   */
  readonly store?: KeyValueStore | undefined
}

/** The result of `client.beginAuthorization`. Redirect to `authUrl` (or post `params` to it). */
export interface BeginAuthorizationResult {
  readonly authUrl: string
  readonly state: string
  /** POST only: the parameters to submit as the form body. */
  readonly params?: Readonly<Record<string, string>>
  /** Without a store only: keep it (secret) for `completeAuthorization`. */
  readonly codeVerifier?: string
  /** Without a store only, when `openid` is requested: keep it for `completeAuthorization`. */
  readonly nonce?: string
}

/**
 * Options of `client.completeAuthorization`: the `store` the launch was kept in, or the values
 * the caller kept itself (`state`, `codeVerifier`, and `nonce` when one was sent). UDAP clients
 * may pass the trust inputs (needed when this client validated no metadata before, e.g. when
 * another process began the launch); the session's refreshes use them too.
 */
export interface CompleteAuthorizationOptions
  extends CancellableOptions,
    Partial<UdapTrustOptions> {
  readonly store?: KeyValueStore | undefined
  readonly state?: string | undefined
  readonly codeVerifier?: string | undefined
  readonly nonce?: string | undefined
  /** Awaited after every refresh of the session made here. */
  readonly onTokens?: TokensListener | undefined
}

/**
 * Options of `client.resumeSession`. UDAP clients may pass the trust inputs the session's
 * refreshes validate the token endpoint with (needed when this client validated no metadata).
 */
export interface ResumeSessionOptions extends Partial<UdapTrustOptions> {
  /** Awaited after every refresh: where an app persists `tokens.serialize()`. */
  readonly onTokens?: TokensListener | undefined
}

/** Options of `client.validateIdToken`. */
export interface ValidateIdTokenOptions extends CancellableOptions {
  /** The `nonce` sent in the authorization request, when one was. */
  readonly nonce?: string | undefined
  /** Refuse an authentication older than this many seconds (`auth_time` required). */
  readonly maxAgeSeconds?: number | undefined
}

/** Options of `client.backendTokens` (docs/guides/backend-services-at-scale.md): `requestBackendToken`'s, plus reuse. */
export interface BackendTokensOptions
  extends Omit<RequestBackendTokenOptions, 'signal' | 'privateKey' | 'kid'> {
  /**
   * Where tokens are shared: by default this client's own memory; a shared store (e.g.
   * `redisStore` from `@fhir-auth/store-redis`) lets a fleet share one token per expiry window.
   */
  readonly store?: KeyValueStore | undefined
  /** A token is renewed when it expires within this many seconds; default 60. */
  readonly minValiditySeconds?: number | undefined
}

// The option names each `Client` operation accepts: any other own member of its options object
// is a ConfigurationError ("unknown option", with these names), so that a typo such as
// `requestBackendToken({ scope })` is not silently a request for the configured scopes (ADR 0008).
// Each list is checked by the compiler against its options type: adding an option to a type
// without adding it here (or the reverse) does not compile.

const signal: OptionNameSet<CancellableOptions> = { signal: 1 }
const trustInputs: OptionNameSet<UdapTrustOptions> = {
  trustedAnchors: 1,
  crls: 1,
  revocation: 1,
  community: 1,
}
const credentials: OptionNameSet<CredentialOverrides> = { clientSecret: 1, privateKey: 1, kid: 1 }
const authorizationRequest: OptionNameSet<AuthorizationUrlOptions> = {
  ...signal,
  ...trustInputs,
  launch: 1,
  customScopes: 1,
  method: 1,
  idp: 1,
}
/** What `requestBackendToken` and `backendTokens` share: what the token is asked for. */
const backendTokenRequest: OptionNameSet<
  Omit<RequestBackendTokenOptions, keyof CancellableOptions | 'privateKey' | 'kid'>
> = { ...trustInputs, scopes: 1, b2b: 1, b2bUser: 1, extensions: 1, clientUri: 1 }

/**
 * The option names of each `Client` operation that takes an options object, derived from its
 * options type. `registerClient` takes SMART's and UDAP's (its overloads); each protocol checks
 * what its registration needs.
 *
 * @internal
 */
export const operationOptionNames = {
  serverMetadata: optionNames<ServerMetadataOptions>({ ...signal, ...trustInputs }),
  authorizationUrl: optionNames<AuthorizationUrlOptions>(authorizationRequest),
  beginAuthorization: optionNames<BeginAuthorizationOptions>({ ...authorizationRequest, store: 1 }),
  completeAuthorization: optionNames<CompleteAuthorizationOptions>({
    ...signal,
    ...trustInputs,
    store: 1,
    state: 1,
    codeVerifier: 1,
    nonce: 1,
    onTokens: 1,
  }),
  requestAccessToken: optionNames<RequestAccessTokenOptions>({
    ...signal,
    ...trustInputs,
    ...credentials,
    code: 1,
    codeVerifier: 1,
  }),
  refreshToken: optionNames<RefreshTokenOptions>({
    ...signal,
    ...trustInputs,
    ...credentials,
    refreshToken: 1,
    scopes: 1,
  }),
  requestBackendToken: optionNames<RequestBackendTokenOptions>({
    ...signal,
    ...backendTokenRequest,
    privateKey: 1,
    kid: 1,
  }),
  backendTokens: optionNames<BackendTokensOptions>({
    ...backendTokenRequest,
    store: 1,
    minValiditySeconds: 1,
  }),
  registerClient: optionNames<SmartRegistrationOptions & UdapRegistrationOptions>({
    ...signal,
    ...trustInputs,
    registrationEndpoint: 1,
    authorization: 1,
    clientUri: 1,
    certifications: 1,
  }),
  cancelRegistration: optionNames<UdapRegistrationOptions>({
    ...signal,
    ...trustInputs,
    clientUri: 1,
    certifications: 1,
  }),
  resumeSession: optionNames<ResumeSessionOptions>({ ...trustInputs, onTokens: 1 }),
  validateIdToken: optionNames<ValidateIdTokenOptions>({ ...signal, nonce: 1, maxAgeSeconds: 1 }),
  isTokenResponseValid: optionNames<TokenResponseCheckOptions>({ flow: 1 }),
  diagnose: optionNames<DiagnoseOptions>({ ...signal, tryToken: 1 }),
} as const

/** A `Client` operation that takes an options object. @internal */
export type OperationName = keyof typeof operationOptionNames
