import {
  type Clock,
  ConfigurationError,
  type CryptoBackend,
  DiscoveryError,
  defaultLogger,
  type JsonRecord,
  type Logger,
  safeUrl,
  type TransportOptions,
} from '@fhir-auth/core/essentials'
import {
  failSafeLogger,
  fetchDiscoveryDocument,
  readOptions,
  requireNonBlankString,
  transportOf,
} from '@fhir-auth/core/internal'
import { currentTime, requireClock } from '@fhir-auth/core/internal/on-demand'
import { udapDiscoveryUrl } from './discovery-url.js'
import { parseUdapMetadata, type UdapMetadataDocument } from './metadata-document.js'
import { requireCryptoBackend } from './option-checks.js'
import { verifySignedMetadata } from './signed-metadata.js'
import { applySignedMetadataValues } from './signed-metadata-values.js'
import { checkTrustInputs, checkUdapTrustInputs, type UdapTrustInputs } from './trust-inputs.js'
import { UdapMetadata } from './udap-metadata.js'
import { isAbsoluteUri } from './uri.js'

/** Options of {@link discoverUdapMetadata}. */
export interface DiscoverUdapOptions extends TransportOptions, UdapTrustInputs {
  /** The FHIR base URL, exactly as the server's certificate names it (`iss` must equal it). */
  readonly baseUrl: string
  /** The trust community URI, sent as `?community=` so the server signs with that community's certificate. */
  readonly community?: string | undefined
  readonly crypto: CryptoBackend
  /** The clock for certificate, CRL and `exp`/`iat` checks; default the system clock. */
  readonly now?: Clock | undefined
  /** Where progress, tolerated deviations and failures are logged; default warnings and errors on the console. */
  readonly logger?: Logger | undefined
}

/**
 * Discovers a FHIR server's UDAP metadata and verifies its `signed_metadata`. Never returns
 * unverified metadata: the client SHALL NOT proceed with UDAP when any check fails.
 *
 * Before any request: `crypto` must be a backend, `trustedAnchors` a non-empty array of
 * certificates the backend can read, `crls` (when given) an array, `revocation` (when given)
 * `{ fetch?, cache? }`, and `community`, when given, an absolute URI. CRLs the server's chain
 * needs and `crls` lacks are fetched from the distribution points of its certificates (once
 * their signatures chain to an anchor) through the same `fetch` and `timeoutMs`, and kept in
 * `revocation.cache` (default: this call's memory) until their `nextUpdate`, as are OCSP answers
 * (`unknown` never) and, for a day at most, intermediates fetched from AIA `caIssuers`. Then one `GET {baseUrl}/.well-known/udap[?community=…]` under the core transport
 * policy, and:
 * - `404` → the server does not support UDAP; `204` → the server does not recognise the
 *   community (or has no metadata); any other non-2xx, a transport failure or a body that is
 *   not a JSON object → failure;
 * - {@link parseUdapMetadata} (fatal problems fail, tolerated ones are logged as warnings);
 * - {@link verifySignedMetadata} with the trust inputs at `now`;
 * - every metadata value the verified `signed_metadata` carries takes precedence over the
 *   unsigned one (IG STU2 §2.3), judged by the same structural rules (a signed value that makes
 *   the document unusable fails); an unsigned value that differs from the signed one is logged
 *   as a warning.
 *
 * Logs info at the start and on success, warn per tolerated deviation, error on failure.
 * Nothing is cached here; `Client` caches.
 *
 * @throws ConfigurationError `baseUrl`, `crypto`, `trustedAnchors`, `crls`, `revocation`, `community` or
 *   `now`, before any request.
 * @throws DiscoveryError with `endpoint` (the discovery URL without query) and `status` when a
 *   response had a failing status; the message names the failed check, and `cause` is the
 *   `HttpError`, `CertificateChainError` or `CryptoError` when there is one.
 * @example
 * ```ts
 * const metadata = await discoverUdapMetadata({
 *   baseUrl: 'https://fhir.example.org/r4',
 *   crypto: createNodeCryptoBackend(),
 *   trustedAnchors: [communityRootPem],
 *   // crls: [rootCrlPem, intermediateCrlPem] — optional: fetched from the distribution points
 *   revocation: { cache: sharedStore },
 * })
 * metadata.tokenEndpoint // the signed value
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html
 */
export async function discoverUdapMetadata(input: DiscoverUdapOptions): Promise<UdapMetadata> {
  const options = readOptions(input, 'discoverUdapMetadata', { required: true })
  const baseUrl = requireNonBlankString(options.baseUrl, 'baseUrl')
  const crypto = requireCryptoBackend(options.crypto)
  const trust = checkUdapTrustInputs(options)
  await checkTrustInputs(trust, crypto)
  const community = checkCommunity(options.community)
  const clock = requireClock(options.now)
  // A logger that throws must not change what discovery answers, nor hide the failure it reports.
  const logger = failSafeLogger(options.logger ?? defaultLogger)
  const url = udapDiscoveryUrl(baseUrl, community)
  const endpoint = safeUrl(url)
  const communityNote = community === undefined ? '' : ` for community ${JSON.stringify(community)}`
  logger.info(`UDAP discovery: GET ${endpoint}${communityNote}`, {
    event: 'udap.discovery.started',
    endpoint,
  })
  try {
    const json = await fetchMetadataDocument(url, communityNote, options)
    const allowInsecureLocalhost = options.allowInsecureLocalhost === true
    const parsed = parseUdapMetadata(json, { endpoint, allowInsecureLocalhost })
    const { document } = parsed
    for (const problem of parsed.problems) {
      logger.warn(`UDAP metadata from ${endpoint} deviates from STU2: ${problem}`, {
        event: 'udap.discovery.noncompliant',
        endpoint,
      })
    }
    const verified = await verifySignedMetadata({
      jwt: document.signed_metadata,
      baseUrl,
      unsignedMetadata: json,
      crypto,
      trustedAnchors: trust.trustedAnchors,
      crls: trust.crls,
      revocation: trust.revocation,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      logger,
      now: currentTime(clock),
      allowInsecureLocalhost,
      endpoint,
    })
    warnAboutUnsignedEndpoints(document, verified.claims, endpoint, logger)
    const signed = applySignedMetadataValues(json, parsed, verified.claims, {
      endpoint,
      allowInsecureLocalhost,
    })
    for (const problem of signed.problems) {
      logger.warn(
        `UDAP metadata from ${endpoint} deviates from STU2 in its signed_metadata: ${problem}`,
        { event: 'udap.discovery.noncompliant', endpoint },
      )
    }
    for (const field of signed.differing) {
      logger.warn(
        `UDAP metadata from ${endpoint}: the unsigned ${field} differs from the signed one; using the signed value`,
        { event: 'udap.discovery.unsigned-value-differs', endpoint, field },
      )
    }
    const metadata = new UdapMetadata({
      raw: json,
      document: signed.document,
      signedClaims: verified.claims,
      serverCertificate: verified.serverCertificate,
      chainNotAfter: verified.chainNotAfter,
    })
    logger.info(`UDAP metadata from ${endpoint} verified`, {
      event: 'udap.discovery.verified',
      endpoint,
      issuer: verified.claims.iss,
    })
    return metadata
  } catch (error) {
    if (error instanceof DiscoveryError) {
      logger.error(error.message, {
        event: 'udap.discovery.failed',
        endpoint,
        status: error.status,
      })
    }
    throw error
  }
}

function checkCommunity(community: unknown): string | undefined {
  if (community === undefined) return undefined
  if (isAbsoluteUri(community)) return community
  throw new ConfigurationError({
    invalidAttribute: 'community',
    message:
      'community must be an absolute URI naming the trust community (e.g. udap://fhirlabs.net/)',
    ...(typeof community === 'string' ? { invalidValue: community } : {}),
  })
}

/**
 * GETs the metadata document. UDAP gives two statuses a meaning of their own: 404, the server
 * supports no UDAP workflow (the client SHOULD conclude so); 204, the server does not recognise
 * the requested community (or has no metadata).
 */
function fetchMetadataDocument(
  url: string,
  communityNote: string,
  options: TransportOptions,
): Promise<JsonRecord> {
  return fetchDiscoveryDocument({
    url,
    label: 'UDAP discovery',
    transport: transportOf(options),
    statusProblem: (status) => {
      if (status === 404) return 'HTTP 404, the server does not support UDAP'
      if (status !== 204) return undefined
      return communityNote === ''
        ? 'HTTP 204, the server returned no UDAP metadata'
        : `HTTP 204, community not recognised by the server${communityNote}`
    },
  })
}

const endpointNames = ['token_endpoint', 'registration_endpoint', 'authorization_endpoint'] as const

/**
 * IG STU2: signed endpoint values SHALL take precedence over the unsigned ones. A difference is
 * worth a warning (a misconfigured server, or a tampered document) but is not fatal.
 */
function warnAboutUnsignedEndpoints(
  document: UdapMetadataDocument,
  claims: Readonly<Record<string, unknown>>,
  endpoint: string,
  logger: Logger,
): void {
  for (const name of endpointNames) {
    const unsigned = document[name]
    if (unsigned !== undefined && unsigned !== claims[name]) {
      logger.warn(
        `UDAP metadata from ${endpoint}: the unsigned ${name} differs from the signed one; using the signed value`,
        { event: 'udap.discovery.unsigned-endpoint-differs', endpoint, field: name },
      )
    }
  }
}
