import type { CertificateAuthority, TestKeyPair } from '@fhir-auth/test-pki/issuer'
import type { RecordedRequest } from '../http/recorded-request.js'
import type { HostileDiscoveryVariant } from './hostile-variants.js'
import type { PkiObject, UdapTrust } from './pki-object.js'
import type { UdapRegistration } from './registration-store.js'

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

/** Options of `startUdapSandbox`; every member is optional. */
export interface UdapSandboxOptions {
  /**
   * `grant_types_supported`. Default `['client_credentials']`. `authorization_code` adds an
   * advertised `authorization_endpoint` (registration accepts such clients; the token endpoint
   * answers only `client_credentials`).
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
  /** A hostile discovery variant active from the start; see `sandbox.setHostile`. */
  readonly hostile?: HostileDiscoveryVariant
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
}

/** The advertised endpoint URLs of a running UDAP sandbox. */
export interface UdapSandboxEndpoints {
  /** `${fhirBaseUrl}/.well-known/udap`. */
  readonly discovery: string
  readonly registration: string
  readonly token: string
  /** Present when `authorization_code` is among the grant types. */
  readonly authorization?: string
}

/** How many requests reached each endpoint since start or the last `clearRequests()`. */
export interface UdapRequestCounts {
  readonly discovery: number
  readonly registration: number
  readonly token: number
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
  /** The active hostile discovery variant, if any. */
  readonly hostile: HostileDiscoveryVariant | undefined
  /**
   * Makes discovery wrong in exactly one way from the next request on (`undefined` restores
   * conformant metadata). Registration and token endpoints are unaffected.
   *
   * @throws {ConfigurationError} `invalidAttribute: 'hostile'` for an unknown variant.
   */
  setHostile(variant: HostileDiscoveryVariant | undefined): void
  /** Closes the server and its connections. Idempotent. */
  close(): Promise<void>
}
