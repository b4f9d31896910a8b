import { ConfigurationError, type JwsSigner } from '@fhir-auth/core'
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
  RequestBackendTokenOptions,
  UdapRegistrationOptions,
  UdapTrustOptions,
} from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import { readTrustOptions, UdapDiscoveryCache } from './udap-discovery-cache.js'

export type { UdapMetadata }

/** How long a checked signing identity is reused before the chain is checked again. */
const signerReuseMs = 60_000

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
export class UdapProtocol {
  readonly #context: ProtocolContext
  readonly #discovery: UdapDiscoveryCache
  #registered: { readonly clientId: string; readonly clientUri: string } | undefined
  readonly #signers = new Map<string, { readonly signer: JwsSigner; readonly reuseUntil: number }>()

  constructor(context: ProtocolContext) {
    this.#context = context
    this.#discovery = new UdapDiscoveryCache(context)
  }

  serverMetadata(
    input: (UdapTrustOptions & { readonly signal?: AbortSignal }) | undefined,
  ): Promise<UdapMetadata> {
    const options = this.#context.checks.readOptions(input, 'serverMetadata')
    return this.#discovery.metadata(options, options.signal)
  }

  async registerClient(
    metadata: Readonly<Record<string, unknown>>,
    input: UdapRegistrationOptions,
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
    const options = this.#context.checks.readOptions(input, 'requestBackendToken')
    const { config, logger, now } = this.#parts()
    logger.info(
      'Requesting access token with a UDAP authentication token (client_credentials grant)',
      {
        event: 'udap.token.client_credentials',
      },
    )
    const scopes = this.#context.checks.usableScopes(
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
    if (!this.#context.checks.isPresent(issuer)) {
      throw new ConfigurationError({
        invalidAttribute: 'clientId',
        message:
          'a UDAP token request needs a client_id (configure clientId or register first) or, for the unregistered-client flow, a clientUri',
      })
    }
    const signingUri =
      explicitClientUri ?? (clientId === undefined ? undefined : this.#registered?.clientUri)
    // The identity checks need nothing from the server: they run before discovery.
    await this.#signer(signingUri, [])
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

  async #register(
    metadata: Readonly<Record<string, unknown>>,
    input: UdapRegistrationOptions,
    operation: 'register' | 'cancel',
  ): Promise<RegistrationResponse> {
    const options = this.#context.checks.readOptions(
      input,
      operation === 'register' ? 'registerClient' : 'cancelRegistration',
    )
    const { config, now } = this.#parts()
    if (!this.#context.checks.isPresent(options.clientUri)) {
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
    await this.#signer(clientUri, [])
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
   * The signing identity from the config's key and chain, checked by `prepareUdapSigner`
   * (chain order and validity, client URI among the leaf's SANs, key matches leaf).
   */
  async #signer(
    clientUri: string | undefined,
    advertisedAlgorithms: readonly string[],
  ): Promise<JwsSigner> {
    const { config, now } = this.#parts()
    const at = now()
    const crypto = await this.#context.cryptoBackend()
    const chain = config.certificateChain
    const uri = clientUri ?? (await firstSubjectAltName(crypto, chain))
    // Checking the identity parses the chain, matches the key and imports it: reuse the result
    // for a minute (and never beyond the leaf's validity), so token requests do not repeat it.
    const key = JSON.stringify([uri, advertisedAlgorithms])
    const cached = this.#signers.get(key)
    if (cached !== undefined && at.getTime() < cached.reuseUntil) return cached.signer
    const { signer, leaf } = await prepareUdapSigner({
      crypto,
      privateKey: config.privateKey,
      certificateChain: chain,
      clientUri: uri,
      advertisedAlgorithms,
      algorithm: config.jwtAlgorithm,
      now: at,
    })
    if (this.#signers.size >= 16) this.#signers.clear()
    this.#signers.set(key, {
      signer,
      reuseUntil: Math.min(at.getTime() + signerReuseMs, leaf.notAfter.getTime()),
    })
    return signer
  }

  #parts() {
    const { config, options } = this.#context
    return { config, logger: options.logger, now: options.now }
  }
}

/** The leaf's first URI SAN: the client URI to check when a registered client gives none. */
async function firstSubjectAltName(
  crypto: Awaited<ReturnType<ProtocolContext['cryptoBackend']>>,
  chain: readonly unknown[] | undefined,
): Promise<string> {
  const leaf = chain?.[0]
  if (leaf === undefined) return ''
  try {
    return (await crypto.parseCertificate(leaf as never)).subjectAltNameUris[0] ?? ''
  } catch {
    // prepareUdapSigner reports an unreadable chain with the right error.
    return ''
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
