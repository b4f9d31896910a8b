import type {
  AuthorizeOptions,
  AuthorizeRequest,
  AuthorizeResult,
} from '../http/headless-user-agent.js'
import type { RecordedRequest } from '../http/recorded-request.js'
import type {
  DiscoveryOverride,
  DiscoveryResponseOverride,
  SmartConfigurationDocument,
} from './discovery-document.js'
import type { IdTokenVariant } from './id-token-variants.js'
import type { LaunchRequest } from './launch-context.js'
import type { SandboxClient } from './sandbox-client.js'
import type { TokenEndpointHooks } from './token-endpoint-hooks.js'
import type { SandboxVendor } from './vendor-modes.js'

/** The signed-in user of every authorization. */
export interface SandboxUser {
  /** Account id, the ID token's `sub`. Default `practitioner-1`. */
  readonly id?: string
  /**
   * The user's FHIR resource, relative to the FHIR base (`Practitioner/practitioner-1`, the
   * default) or absolute. The ID token's `fhirUser` claim is always the absolute URL.
   */
  readonly fhirUser?: string
}

/** Client authentication signing algorithms the sandbox can be told to accept. */
export type ClientAssertionAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'ES256' | 'ES384' | 'ES512'

/** Options of `startSmartSandbox`; every member is optional. */
export interface SmartSandboxOptions {
  /** Clients registered before the server starts. */
  readonly clients?: readonly SandboxClient[]
  /** Rewrites the discovery document; see {@link DiscoveryOverride.document}. */
  readonly discovery?: (document: SmartConfigurationDocument) => unknown
  /** Replaces the discovery response's status, content type or raw body. */
  readonly discoveryResponse?: DiscoveryResponseOverride
  /** The RFC 7591 initial access token `/reg` requires. Default: 256 random bits. */
  readonly initialAccessToken?: string
  readonly user?: SandboxUser
  /** The patient a standalone launch "picks". Default `patient-1`. */
  readonly standalonePatient?: string
  /** `expires_in` of app-launch access tokens. Default 3600. */
  readonly accessTokenLifetimeSeconds?: number
  /** `expires_in` of backend-services (client_credentials) tokens. Default 300. */
  readonly backendAccessTokenLifetimeSeconds?: number
  /** `alg` values accepted for `private_key_jwt`. Default `['RS384', 'ES384']` (SMART). */
  readonly clientAssertionAlgorithms?: readonly ClientAssertionAlgorithm[]
  /** How many requests `sandbox.requests` keeps (oldest dropped first). Default 10 000. */
  readonly requestLogLimit?: number
  /**
   * How the token endpoint reads HTTP Basic client credentials. `'form-urlencoded'` (default):
   * oidc-provider's own reading, RFC 6749 §2.3.1 (id and secret each form-urlencoded). `'raw'`:
   * `base64(id:secret)` taken as it is, split at the first `:`, as the SMART IG example and some
   * real SMART servers read it — so a client that form-encodes a secret with `+ / = : % ~` or
   * non-ASCII is refused with `invalid_client`, as it would be there.
   */
  readonly basicAuthDecoding?: 'form-urlencoded' | 'raw'
  /**
   * The scope syntaxes discovery advertises as capabilities (`permission-v1`, `permission-v2`).
   * Default `['v2']`. Only the advertisement changes: the sandbox grants v1 and v2 scopes alike,
   * so `['v1']` plays a server that speaks v1 only (as EHRs did before SMART 2).
   */
  readonly scopeVersions?: readonly ('v1' | 'v2')[]
  /**
   * Narrows every grant: the `scope` of each successful token response (code exchange, refresh,
   * client credentials) becomes what this returns for the scopes granted, as a server that
   * grants fewer scopes than asked does. Default: the grant as the provider made it.
   */
  readonly narrowGrant?: (granted: readonly string[]) => readonly string[]
  /**
   * Behave like a real EHR in the ways its documentation describes (see {@link SandboxVendor}):
   * its FHIR base path, discovery and token response deviations. Default: the strict sandbox.
   */
  readonly vendor?: SandboxVendor
}

/** The endpoint URLs of a running sandbox. */
export interface SmartSandboxEndpoints {
  readonly authorization: string
  readonly token: string
  readonly registration: string
  readonly jwks: string
  readonly introspection: string
  readonly revocation: string
  readonly discovery: string
}

/** A running SMART sandbox; see `startSmartSandbox`. */
export interface SmartSandbox {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string
  /** The OpenID issuer (equal to {@link origin}). */
  readonly issuer: string
  /**
   * `${origin}/fhir` (a vendor mode's own path, e.g. `/api/FHIR/R4`): the value of `aud` and the
   * base URL to configure the library with.
   */
  readonly fhirBaseUrl: string
  /** The vendor mode the sandbox runs in; `undefined` for the strict sandbox. */
  readonly vendor: SandboxVendor | undefined
  readonly endpoints: SmartSandboxEndpoints
  /** The token `/reg` accepts as `Authorization: Bearer …`. */
  readonly initialAccessToken: string
  /** Every request the front received since start or the last {@link clearRequests}, oldest first. */
  readonly requests: readonly RecordedRequest[]
  clearRequests(): void
  /**
   * Registers a client while the server runs; it is usable at once.
   *
   * @throws {ConfigurationError} `invalidAttribute: 'client'` when the metadata breaks a
   *   provider or SMART rule, or the client_id is taken.
   */
  addClient(client: SandboxClient): Promise<void>
  /** Stores an EHR launch context and returns the opaque `launch` value that binds it. */
  createLaunch(request: LaunchRequest): string
  /**
   * Plays the user through an authorization request and returns where it ended.
   *
   * @throws {ConfigurationError} the request is malformed or targets another origin.
   * @throws {HttpError} reason `redirect`: too many redirects.
   */
  authorize(request: AuthorizeRequest, options?: AuthorizeOptions): Promise<AuthorizeResult>
  /** Replaces (or with `undefined` removes) the discovery override while the server runs. */
  setDiscoveryOverride(override: DiscoveryOverride | undefined): void
  /**
   * From now on, rewrites the ID token of every token response as `variant` says (see
   * {@link IdTokenVariant}); `undefined` stops. `rotated-key` rotates to a new key, which `/jwks`
   * publishes from its first use.
   */
  setIdTokenVariant(variant: IdTokenVariant | undefined): void
  /**
   * From now on, runs `hooks` on every token request (hold it, rewrite the answer); `undefined`
   * stops. See {@link TokenEndpointHooks}.
   */
  setTokenEndpointHooks(hooks: TokenEndpointHooks | undefined): void
  /** Closes the server, its connections and all state. Idempotent. */
  close(): Promise<void>
}
