import { ConfigurationError, type JwsSigner } from '@fhir-auth/core'
import { isNonBlankString, usableScopes } from '@fhir-auth/core/internal'
import { BoundedCache } from '@fhir-auth/core/jws'
import {
  cancelUdapRegistration,
  createSoftwareStatement,
  normalizeRegistrationMetadata,
  prepareUdapSigner,
  type RegistrationResponse,
  registerUdapClient,
  requestUdapClientCredentialsToken,
  type TokenResponse,
  type UdapMetadata,
} from '@fhir-auth/udap'
import type {
  BackendTokensOptions,
  RequestBackendTokenOptions,
  UdapRegistrationOptions,
  UdapTrustOptions,
} from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import { type ProtocolImplementation, unsupportedOperation } from '../protocol-implementation.js'
import type { BackendTokenIdentity } from '../tokens/backend-token-identity.js'
import { readTrustOptions, UdapDiscoveryCache } from './udap-discovery-cache.js'

export type { UdapMetadata }

/** A signing identity checked by `prepareUdapSigner`, kept for reuse until `reuseUntil` (ms). */
interface CheckedIdentity {
  readonly clientUri: string
  readonly signer: JwsSigner
  /** Signers for servers that do not accept `signer.alg`, by their space-joined list. */
  readonly signersByList: Map<string, JwsSigner>
  readonly reuseUntil: number
}

/** How long a checked signing identity is reused before the chain is checked again. */
const signerReuseMs = 60_000

/** Checked identities kept per client URI: a client signs as one or a few. */
const identityCacheSize = 16

/** What a UDAP client does instead of the SMART app-launch operations (until UDAP authorization code). */
const appLaunchHint = 'UDAP clients use registerClient and requestBackendToken'

/**
 * The UDAP Security STU2 implementation behind a `Client` with `protocol: 'udap'`. Internal:
 * built lazily by `Client` (and loaded as its own chunk, so SMART-only bundles never carry it).
 *
 * State it keeps for its client: validated metadata per community and trust inputs, and the
 * `client_id` and client URI of a registration made through it, which later authentication
 * tokens use as `iss`/`sub` when no `clientId` is configured.
 *
 * @internal
 */
export class UdapProtocol implements ProtocolImplementation {
  readonly #context: ProtocolContext
  readonly #discovery: UdapDiscoveryCache
  #registered: { readonly clientId: string; readonly clientUri: string } | undefined
  readonly #identities = new BoundedCache<CheckedIdentity>(identityCacheSize)

  constructor(context: ProtocolContext) {
    this.#context = context
    this.#discovery = new UdapDiscoveryCache(context)
  }

  async serverMetadata(
    input: (Partial<UdapTrustOptions> & { readonly signal?: AbortSignal | undefined }) | undefined,
  ): Promise<UdapMetadata> {
    const options = this.#context.readOptions(input, 'serverMetadata')
    return this.#discovery.metadata(options, options.signal)
  }

  async authorizationUrl(): Promise<never> {
    throw unsupportedOperation('authorizationUrl', 'udap', ['smart'], appLaunchHint)
  }

  async requestAccessToken(): Promise<never> {
    throw unsupportedOperation('requestAccessToken', 'udap', ['smart'], appLaunchHint)
  }

  async refreshToken(): Promise<never> {
    throw unsupportedOperation('refreshToken', 'udap', ['smart'], appLaunchHint)
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
    const clientId = config.clientId ?? this.#registered?.clientId
    const issuer = clientId ?? explicitClientUri
    if (!isNonBlankString(issuer)) {
      throw new ConfigurationError({
        invalidAttribute: 'clientId',
        message:
          'a UDAP token request needs a client_id (configure clientId or register first) or, for the unregistered-client flow, a clientUri',
      })
    }
    const signingUri =
      explicitClientUri ?? (clientId === undefined ? undefined : this.#registered?.clientUri)
    await this.#identity(signingUri)
    const metadata = await this.#tokenMetadata(options)
    const tokenEndpoint = config.tokenEndpoint ?? metadata?.tokenEndpoint
    if (tokenEndpoint === undefined)
      throw new ConfigurationError({ invalidAttribute: 'tokenEndpoint' })
    if (metadata?.requiresB2bExtension() && options.b2b === undefined) {
      throw new ConfigurationError({
        invalidAttribute: 'b2b',
        message:
          'the server requires the hl7-b2b authorization extension: pass b2b { organizationId, purposeOfUse }',
      })
    }
    const signer = await this.#signer(
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
    const clientId = config.clientId ?? this.#registered?.clientId ?? clientUri
    const metadata = await this.#tokenMetadata(options)
    const tokenEndpoint = config.tokenEndpoint ?? metadata?.tokenEndpoint
    // Missing parts are left for the token request itself to report, in its own words.
    return {
      tokenEndpoint: tokenEndpoint ?? '',
      clientId: clientId ?? '',
      scopes: scopes ?? [],
      context: options.b2b ?? null,
    }
  }

  async startAuthorization(): Promise<never> {
    throw unsupportedOperation('beginAuthorization', 'udap', ['smart'], appLaunchHint)
  }

  async authorizationIssuer(): Promise<never> {
    throw unsupportedOperation('completeAuthorization', 'udap', ['smart'], appLaunchHint)
  }

  async openIdProvider(): Promise<never> {
    throw unsupportedOperation('validateIdToken', 'udap', ['smart'], appLaunchHint)
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
    await this.#identity(clientUri)
    const serverMetadata = await this.#discovery.metadata(options, options.signal)
    const signer = await this.#signer(
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
      if (this.#registered?.clientId === response.client_id) this.#registered = undefined
      return response
    }
    const response = await registerUdapClient(request)
    this.#registered = { clientId: response.client_id, clientUri }
    return response
  }

  /** Metadata for a token request: trust inputs given now, else what this client validated before. */
  async #tokenMetadata(
    options: Partial<RequestBackendTokenOptions>,
  ): Promise<UdapMetadata | undefined> {
    if (options.trustedAnchors !== undefined || options.crls !== undefined) {
      return this.#discovery.metadata(options, options.signal)
    }
    if (this.#discovery.latest !== undefined) return this.#discovery.latest
    if (this.#context.config.tokenEndpoint !== undefined) return undefined
    // Neither configured nor validated: discovery needs trust inputs (this throws naming them).
    return this.#discovery.metadata(options, options.signal)
  }

  /**
   * A signer for a UDAP JWT whose algorithm the server accepts: the client's checked signing
   * identity when its algorithm is among `advertisedAlgorithms` (or the server names none), else
   * one imported for that list. Algorithm choice takes the key's preferred algorithm the server
   * accepts, so the identity's signer is the one a fresh import would give whenever it qualifies.
   */
  async #signer(
    clientUri: string | undefined,
    advertisedAlgorithms: readonly string[],
  ): Promise<JwsSigner> {
    const identity = await this.#identity(clientUri)
    const { signer } = identity
    if (advertisedAlgorithms.length === 0 || advertisedAlgorithms.includes(signer.alg))
      return signer
    const listKey = advertisedAlgorithms.join(' ')
    const forList = identity.signersByList.get(listKey)
    if (forList !== undefined) return forList
    const prepared = await this.#prepare(identity.clientUri, advertisedAlgorithms)
    identity.signersByList.set(listKey, prepared.signer)
    return prepared.signer
  }

  /**
   * The signing identity from the config's key and chain, checked by `prepareUdapSigner` (the
   * chain through the path policy minus trust and revocation, client URI among the leaf's SANs,
   * key matches leaf) with no algorithm
   * constraint. It needs nothing from the server, so it runs before discovery. Checking parses
   * the chain, matches the key and imports it: the result is reused for a minute (never beyond
   * the leaf's validity), so token requests do not repeat it.
   */
  async #identity(clientUri: string | undefined): Promise<CheckedIdentity> {
    const at = this.#context.options.now().getTime()
    const key = clientUri ?? ''
    const cached = this.#identities.get(key)
    if (cached !== undefined && at < cached.reuseUntil) return cached
    // A registered client's token needs no particular URI: the leaf's first URI SAN stands in.
    const uri = clientUri ?? (await this.#firstSubjectAltName())
    const { signer, leaf } = await this.#prepare(uri, [])
    const identity: CheckedIdentity = {
      clientUri: uri,
      signer,
      signersByList: new Map(),
      reuseUntil: Math.min(at + signerReuseMs, leaf.notAfter.getTime()),
    }
    this.#identities.set(key, identity)
    return identity
  }

  async #prepare(clientUri: string, advertisedAlgorithms: readonly string[]) {
    const { config, now } = this.#parts()
    return prepareUdapSigner({
      crypto: await this.#context.cryptoBackend(),
      privateKey: config.privateKey,
      certificateChain: config.certificateChain,
      clientUri,
      advertisedAlgorithms,
      algorithm: config.jwtAlgorithm,
      now: now(),
    })
  }

  /** The leaf's first URI SAN, or '' (prepareUdapSigner then reports the chain or the URI). */
  async #firstSubjectAltName(): Promise<string> {
    const leaf = this.#context.config.certificateChain?.[0]
    if (leaf === undefined) return ''
    try {
      const crypto = await this.#context.cryptoBackend()
      return (await crypto.parseCertificate(leaf)).subjectAltNameUris[0] ?? ''
    } catch {
      return ''
    }
  }

  #parts() {
    const { config, options } = this.#context
    return { config, logger: options.logger, now: options.now }
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
