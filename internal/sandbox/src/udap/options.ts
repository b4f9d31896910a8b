import type { CertificateAuthority, TestKeyPair } from '@fhir-auth/test-pki/issuer'
import type {
  AuthorizeOptions,
  AuthorizeRequest,
  AuthorizeResult,
} from '../http/headless-user-agent.js'
import type { RecordedRequest } from '../http/recorded-request.js'
import type { HostileVariant } from './hostile-variants.js'
import type { PkiObject, UdapTrust } from './pki-object.js'
import type {
  AuthenticationTokenRecord,
  AuthorizationRequestRecord,
  TieredIdentity,
  TieredLoginRecord,
} from './records.js'
import type { UdapRegistration } from './registration-store.js'
import type { UdapSandboxUser } from './sandbox-user.js'

/** The JWS algorithms UDAP STU2 names (IG 7.1.2): RS256 SHALL, ES256 SHOULD, RS384/ES384 MAY. */
export type UdapSigningAlgorithm = 'RS256' | 'RS384' | 'ES256' | 'ES384'

/** Grant types a UDAP server may advertise (IG table 2.2). */
export type UdapGrantType = 'client_credentials' | 'authorization_code' | 'refresh_token'

/** Extra trust for client certificates, e.g. the committed `@fhir-auth/test-pki` fixtures. */
export interface UdapClientTrust {
  /** Trust anchors as PEM text or DER bytes. */
  readonly anchors: readonly (string | Uint8Array)[]
  /** CRLs for every CA under those anchors, as PEM text or DER bytes (fail closed without). */
  readonly crls: readonly (string | Uint8Array)[]
}

/** The data-holder side of Tiered OAuth (IG STU2 §6); see `UdapSandboxOptions.tieredOAuth`. */
export interface UdapTieredOAuthOptions {
  /**
   * Anchors and CRLs of the IdP communities this data holder trusts (more with
   * `sandbox.trustIdentityProviders`). An IdP whose signed metadata does not chain to them is
   * answered with `invalid_idp`.
   */
  readonly identityProviderTrust?: UdapClientTrust
  /**
   * Maps a verified IdP identity (`iss`, `sub`) to a local user; `undefined` means "unknown
   * here" and the app gets `access_denied` (IG STU2 §6.3). Default: every identity is the
   * sandbox's `user`.
   */
  readonly mapUser?: (identity: TieredIdentity) => UdapSandboxUser | undefined
}

/** Options of `startUdapSandbox`; every member is optional. */
export interface UdapSandboxOptions {
  /**
   * `grant_types_supported`. Default `['client_credentials']` (`['authorization_code']` with
   * `identityProvider`). `authorization_code` adds the authorization endpoint, the
   * authorization_code grant, ID tokens, JWKS and `openid-configuration`; `refresh_token`
   * (only with `authorization_code`) adds refresh tokens.
   */
  readonly grantTypes?: readonly UdapGrantType[]
  /** `scopes_supported`; a `ctx/*.perm` entry also grants every `ctx/Type.perm`. */
  readonly scopesSupported?: readonly string[]
  /** `udap_authorization_extensions_required`. Default `['hl7-b2b']`; `[]` makes it optional. */
  readonly requiredAuthorizationExtensions?: readonly string[]
  /** `token_endpoint_auth_signing_alg_values_supported`. Default RS256, RS384, ES256, ES384. */
  readonly tokenSigningAlgorithms?: readonly UdapSigningAlgorithm[]
  /** `registration_endpoint_jwt_signing_alg_values_supported`. Default as above. */
  readonly registrationSigningAlgorithms?: readonly UdapSigningAlgorithm[]
  /** URI of the default trust community. Default `udap://fhir-auth.sandbox/default`. */
  readonly defaultCommunity?: string
  /**
   * Further communities the server recognises in `?community=`; each gets its own root CA,
   * intermediate and server certificate (see `sandbox.communityTrust`).
   */
  readonly communities?: readonly string[]
  /**
   * Accept authentication tokens from clients that never registered, when `iss = sub` is a URI
   * SAN of the certificate (udap.org JWT client auth §8, community rule of this sandbox).
   */
  readonly allowUnregisteredClients?: boolean
  /**
   * The community's intermediate and the server certificate name CRL distribution points on
   * the sandbox itself (`/crl/<n>/root.crl`, `/crl/<n>/intermediate.crl`, `<n>` the community's
   * index, the default community first), which serve the current CRLs: discovery without
   * `crls`, revocation fetched. Default `false` (no distribution points).
   */
  readonly crlDistributionPoints?: boolean
  /** A hostile variant active from the start; see `sandbox.setHostile`. */
  readonly hostile?: HostileVariant
  /** More anchors (and their CRLs) the server trusts for client certificates. */
  readonly clientTrust?: UdapClientTrust
  /**
   * The server's RSA key (signed_metadata is RS256). Pass one to share a key between many
   * sandboxes and skip the RSA key generation (~0.2 s).
   */
  readonly serverKeyPair?: TestKeyPair
  /**
   * The origin every advertised URL uses, e.g. `https://fhir.example.test`, for tests that map
   * it onto the loopback server with an injected fetch. Default: the loopback origin.
   */
  readonly publicOrigin?: string
  /** `expires_in` of access tokens. Default 300. */
  readonly accessTokenLifetimeSeconds?: number
  /** Leeway for `iat` in the future and `exp` in the past. Default 5 s. */
  readonly clockToleranceSeconds?: number
  /** The server's clock, for JWT time checks, CRL/certificate validity and `iat`. */
  readonly now?: () => Date
  /** How many requests `sandbox.requests` keeps (oldest dropped first). Default 10 000. */
  readonly requestLogLimit?: number
  /**
   * The user every authorization signs in (auto-approved). Default `{ sub: 'udap-user-1',
   * name: 'Sandbox User', fhirUser: 'Practitioner/practitioner-1' }`.
   */
  readonly user?: UdapSandboxUser
  /**
   * Act as an OpenID Connect identity provider for Tiered OAuth (IG STU2 §6): `openid` and
   * `udap` in `scopes_supported`, profile `udap_to`; a code grant whose scopes include `udap`
   * gets an ID token and an access token of at most 300 s, never a refresh token.
   */
  readonly identityProvider?: boolean
  /**
   * Act as a data holder that supports Tiered OAuth (`udap` in `scopes_supported`, profile
   * `udap_to`): an authorization request with scope `udap` and an `idp` sends the user to that
   * IdP. `true` is `{}`. Needs `authorization_code`.
   */
  readonly tieredOAuth?: boolean | UdapTieredOAuthOptions
  /**
   * What the token endpoint does with an `extensions` claim in the authentication token of an
   * authorization_code or refresh_token request, which the IG says clients omit (STU2 §5.3):
   * `refuse` (`invalid_grant`, default) or `ignore`. client_credentials is not affected.
   */
  readonly extensionsWithAuthorizationCode?: 'refuse' | 'ignore'
  /** `exp − iat` of conformant `signed_metadata`, in seconds. Default 3600 (the IG allows a year). */
  readonly signedMetadataLifetimeSeconds?: number
  /**
   * RFC 9207: send `iss` (the FHIR base URL) on every authorization response and advertise
   * `authorization_response_iss_parameter_supported: true`, in the signed metadata claims
   * (`'signed'`) or only in the unsigned document (`'unsigned'`). Default: neither.
   */
  readonly authorizationResponseIss?: 'signed' | 'unsigned'
  /**
   * Answer a modification (a registration whose `iss` is registered already) with a new
   * `client_id` and cancel the old one, as IG STU2 §3.4 allows. Default: the same `client_id`.
   */
  readonly newClientIdOnModification?: boolean
}

/** The advertised endpoint URLs of a running UDAP sandbox. */
export interface UdapSandboxEndpoints {
  /** `${fhirBaseUrl}/.well-known/udap`. */
  readonly discovery: string
  readonly registration: string
  readonly token: string
  /** `/authorize`; present when `authorization_code` is among the grant types (as are the next). */
  readonly authorization?: string
  /** `/jwks`: the key that signs ID tokens. */
  readonly jwks?: string
  /** `${fhirBaseUrl}/.well-known/openid-configuration`. */
  readonly openidConfiguration?: string
  /** `/idp-callback`: the redirect URI this data holder registers at IdPs (Tiered OAuth). */
  readonly identityProviderCallback?: string
}

/** How many requests reached each endpoint since start or the last `clearRequests()`. */
export interface UdapRequestCounts {
  readonly discovery: number
  readonly registration: number
  readonly token: number
  /** The authorization endpoint (and the IdP callback). */
  readonly authorization: number
  /** `openid-configuration`, JWKS and the FHIR `Patient` read. */
  readonly resource: number
  readonly other: number
}

/** An access token the sandbox issued, with the authorization context it was issued for. */
export interface IssuedAccessToken {
  readonly accessToken: string
  readonly clientId: string
  /** `true` for the unregistered-client flow (`clientId` is then the certificate's SAN URI). */
  readonly unregistered: boolean
  readonly scope: string
  /** The `hl7-b2b` extension object of the authentication token, when one was sent. */
  readonly b2b?: Readonly<Record<string, unknown>>
  readonly expiresAt: Date
  /** The grant that issued it: `client_credentials`, `authorization_code` or `refresh_token`. */
  readonly grantType: UdapGrantType
  /** The signed-in user's `sub` (authorization code and refresh). */
  readonly subject?: string
  /** Revoked: its code was replayed or a rotated refresh token was reused. */
  readonly revoked: boolean
}

/** A running UDAP sandbox; see `startUdapSandbox`. */
export interface UdapSandbox {
  /** `http://127.0.0.1:<port>`: where the server really listens. */
  readonly origin: string
  /** The origin of every advertised URL (= {@link origin} unless `publicOrigin` was given). */
  readonly publicOrigin: string
  /** `${publicOrigin}/fhir`: the base URL, `iss` of `signed_metadata` and the server SAN. */
  readonly fhirBaseUrl: string
  readonly endpoints: UdapSandboxEndpoints
  /** URI of the default community. */
  readonly community: string
  /** Trust inputs for the default community: hand `anchors` and `crls` to the client. */
  readonly trust: UdapTrust
  /**
   * Trust inputs of a community given in `options.communities` (or the default one).
   *
   * @throws {ConfigurationError} `invalidAttribute: 'community'` for an unknown community.
   */
  communityTrust(community: string): UdapTrust
  /**
   * The default community's intermediate CA: certificates it issues are trusted by the server
   * (`sanUris` become client URIs). Its CRL is in {@link trust}.
   */
  readonly certificateAuthority: CertificateAuthority
  /**
   * Revokes a certificate issued by {@link certificateAuthority}: the CA's CRL (in
   * {@link trust} and in the server's own trust store) lists it from now on.
   */
  revokeCertificate(serialNumber: string): void
  /** The server certificate that signs the (non-hostile) default metadata. */
  readonly serverCertificate: PkiObject
  /** Every request received since start or the last {@link clearRequests}, oldest first. */
  readonly requests: readonly RecordedRequest[]
  readonly requestCounts: UdapRequestCounts
  clearRequests(): void
  /** A snapshot of every registration by `client_id` (cancelled ones included). */
  readonly registrations: ReadonlyMap<string, UdapRegistration>
  /** Every access token issued, oldest first. */
  readonly accessTokens: readonly IssuedAccessToken[]
  /** The active hostile variant, if any. */
  readonly hostile: HostileVariant | undefined
  /**
   * Makes discovery (a `hostileDiscoveryVariants` entry) or the authorization flow (a
   * `hostileAuthorizationVariants` entry) wrong in exactly one way from the next request on;
   * `undefined` restores conformant behaviour. What the server accepts never changes.
   *
   * @throws {ConfigurationError} `invalidAttribute: 'hostile'` for an unknown variant, or
   *   `unsigned-authorization-endpoint` without `authorization_code`.
   */
  setHostile(variant: HostileVariant | undefined): void
  /** `= fhirBaseUrl`: `iss` of the ID tokens it issues, the `idp` value that names it as IdP. */
  readonly issuer: string
  /**
   * A headless user agent: sends the authorization request (`{ url }` GET or `{ endpoint,
   * params }` POST, on `origin` or `publicOrigin`), follows redirects across loopback origins
   * (data holder → IdP → data holder) with its own cookie jar, and stops at the redirect to
   * the client's redirect URI (the request's `redirect_uri`, else the only registered one),
   * which it never contacts. `decision: 'deny'` makes the user refuse at every sandbox.
   *
   * @throws {ConfigurationError} a malformed request or one for another origin.
   * @throws {HttpError} reason `redirect`: more than ten hops.
   */
  authorize(request: AuthorizeRequest, options?: AuthorizeOptions): Promise<AuthorizeResult>
  /** Every authorization request received, oldest first (also emptied by `clearRequests`). */
  readonly authorizationRequests: readonly AuthorizationRequestRecord[]
  /** Every token request with its authentication token as judged, oldest first (idem). */
  readonly authenticationTokens: readonly AuthenticationTokenRecord[]
  /** Every Tiered OAuth login this sandbox ran as data holder, oldest first (idem). */
  readonly tieredLogins: readonly TieredLoginRecord[]
  /** This data holder's `client_id` at each IdP it registered with, by IdP base URL. */
  readonly identityProviderClients: ReadonlyMap<string, string>
  /** The public JWKS at `endpoints.jwks` (the RSA key that signs ID tokens, with `x5c`). */
  readonly jwks: { readonly keys: readonly Readonly<Record<string, unknown>>[] }
  /**
   * Trusts more anchors (and their CRLs) for client certificates from now on, e.g. a data
   * holder's community at an IdP: `idp.trustClients(dataHolder.trust)`.
   */
  trustClients(trust: UdapTrust | UdapClientTrust): void
  /**
   * Trusts more IdP communities for Tiered OAuth from now on:
   * `dataHolder.trustIdentityProviders(idp.trust)`.
   */
  trustIdentityProviders(trust: UdapTrust | UdapClientTrust): void
  /** Closes the server and its connections. Idempotent. */
  close(): Promise<void>
}
