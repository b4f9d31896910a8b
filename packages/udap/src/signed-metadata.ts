import {
  base64Decode,
  CertificateChainError,
  type CertificateInfo,
  type CryptoBackend,
  CryptoError,
  type DecodedJws,
  DiscoveryError,
  describeValue,
  type FetchLike,
  HttpError,
  isJsonObject,
  type Logger,
  normalizeBaseUrl,
  safeUrl,
  type VerifiedCertificateChain,
  withoutUserInfo,
} from '@fhir-auth/core/essentials'
import { readOptions, requireNonBlankString } from '@fhir-auth/core/internal'
import { requireDate } from '@fhir-auth/core/internal/on-demand'
import { decodeCompactJws } from '@fhir-auth/core/jws'
import { createOnlineRevocation } from '@fhir-auth/core/revocation'
import { udapDiscoveryUrl } from './discovery-url.js'
import { frozenJsonCopy } from './json-value.js'
import { readJwsHeader } from './jws-header.js'
import { requireCryptoBackend } from './option-checks.js'
import { checkUdapTrustInputs, type UdapTrustInputs } from './trust-inputs.js'
import { endpointMember, endpointProblem } from './uri.js'

/** Options of {@link verifySignedMetadata}. */
export interface VerifySignedMetadataOptions extends UdapTrustInputs {
  /** The `signed_metadata` compact JWS from the discovery document. */
  readonly jwt: string
  /** The FHIR base URL the client used, exactly as configured; `iss` must equal it. */
  readonly baseUrl: string
  /** The unsigned discovery document (an `authorization_endpoint` there must also be signed). */
  readonly unsignedMetadata: Readonly<Record<string, unknown>>
  readonly crypto: CryptoBackend
  /** The time the certificates, CRLs and `exp`/`iat` are judged at. */
  readonly now: Date
  /** Accept `http://` endpoint claims on loopback hosts (development only). */
  readonly allowInsecureLocalhost: boolean
  /** The discovery URL, for `DiscoveryError.endpoint`; default: the one of `baseUrl`. */
  readonly endpoint?: string | undefined
  /** The `fetch` CRLs are fetched with (`revocation`); default `globalThis.fetch`. */
  readonly fetch?: FetchLike | undefined
  /** Time limit of one CRL fetch; default the transport's 10 s. */
  readonly timeoutMs?: number | undefined
  /**
   * Where a revocation cache that fails is reported (`warn`, `revocation.cache-read-failed` or
   * `revocation.cache-write-failed`); default the library's console logger.
   */
  readonly logger?: Logger | undefined
}

/** What {@link verifySignedMetadata} returns when every check passed. */
export interface VerifiedSignedMetadata {
  /** The JWT claims set (deeply frozen), including the signed endpoints. */
  readonly claims: Readonly<Record<string, unknown>>
  /** The leaf certificate (`x5c[0]`) that signed the metadata. */
  readonly serverCertificate: CertificateInfo
  /**
   * The earliest `notAfter` on the path the chain was validated along (leaf to anchor): after
   * it, that validation no longer holds, whatever the metadata's `exp` says.
   */
  readonly chainNotAfter: Date
}

/** How far `iat` and `nbf` may lie in the future: clocks of client and server differ a little. */
export const signedMetadataClockSkewSeconds = 60

/**
 * The longest validity accepted: IG STU2 says `exp` SHALL be no more than one year after
 * `iat`, and a calendar year that holds 29 February has 366 days, so a server that signs for
 * "one year" is never refused for a leap day.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 */
export const signedMetadataMaxLifetimeSeconds = 366 * 24 * 60 * 60

/**
 * Verifies a server's `signed_metadata` and returns its claims. Nothing in the JWT is used
 * unless every check passes, in this order:
 *
 * 1. a compact JWS whose header `alg` is exactly `RS256` (`none`, `HS256`, `RS384`, `ES256`…
 *    are refused: IG STU2 pins RS256 for signed metadata) and has no `crit` member;
 * 2. `x5c` a non-empty array of standard-base64 DER certificates, leaf first (RFC 7515 §4.1.6:
 *    base64 of PEM text is refused, never read as PEM);
 * 3. the `x5c` chain, as given, validates to one of `trustedAnchors` at `now`, with
 *    revocation checked for every non-anchor certificate against `crls`, else (`revocation`,
 *    on by default) a CRL fetched from its distribution points once its signature chains to an
 *    anchor (fail closed: the backend's `CertificateChainError` reason — `untrusted`, `order`,
 *    `revoked`, `expired`, `not-yet-valid`, `crl-missing`, `crl-stale`, `crl-bad-signature`,
 *    `revocation-unavailable`… — is named in the message); checked before the signature so a
 *    misordered `x5c` is reported as such;
 * 4. the signature verifies with the public key of `x5c[0]`;
 * 5. `iss` is present and exactly equal (no normalisation: case and trailing slash matter, IG
 *    7.1.5) to a URI subject alternative name of `x5c[0]`, and equal to `baseUrl` but for a
 *    trailing slash, which is not significant on a base URL; `sub` equals `iss`;
 * 6. `exp` is a number in the future; `iat` a number not more than 60 s in the future; `exp` is
 *    after `iat` and at most 366 days after it (one year, leap day included); `nbf`, when present, has passed; `jti` is a
 *    non-empty string;
 * 7. `token_endpoint` and `registration_endpoint` are present, and `authorization_endpoint`
 *    when the unsigned document has one; every endpoint claim present is a usable HTTPS URL
 *    (loopback HTTP only with `allowInsecureLocalhost`).
 *
 * @throws DiscoveryError naming the failed check; `cause` is the backend's
 *   `CertificateChainError` or `CryptoError` when there is one, or the `HttpError` (`network`)
 *   of backend code that could not be loaded.
 * @throws ConfigurationError for options of the wrong type (`baseUrl`, `crypto`,
 *   `trustedAnchors`, `crls`, `now`), and when the backend rejects a trust input as such.
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 * @see https://www.udap.org/udap-server-metadata-stu1.html
 */
export async function verifySignedMetadata(
  input: VerifySignedMetadataOptions,
): Promise<VerifiedSignedMetadata> {
  const options = readOptions(input, 'verifySignedMetadata', { required: true })
  const baseUrl = requireNonBlankString(options.baseUrl, 'baseUrl')
  const crypto = requireCryptoBackend(options.crypto)
  const trust = checkUdapTrustInputs(options)
  const now = requireDate(options.now, 'now')
  const endpoint = options.endpoint ?? safeUrl(udapDiscoveryUrl(baseUrl))
  const fail = (check: string, cause?: unknown): DiscoveryError =>
    new DiscoveryError(
      { endpoint, message: `signed_metadata from ${endpoint} failed validation: ${check}` },
      cause === undefined ? undefined : { cause },
    )

  const jws = decodeSignedMetadata(options.jwt, fail)
  const certificates = readCertificateChain(jws.header.x5c, fail)
  let leaf: CertificateInfo
  let chain: VerifiedCertificateChain
  try {
    leaf = await parseLeaf(crypto, certificates, fail)
    // The chain goes first so a misordered x5c is reported as `order`, not as a bad signature.
    chain = await verifyChain(crypto, certificates, { ...trust, transport: options }, now, fail)
    await verifyJwsSignature(crypto, jws, leaf, fail)
  } catch (error) {
    // The backend's code loaded on demand did not load (a browser chunk gone): no verdict on
    // the metadata, and ADR 0002's "any failure → DiscoveryError" still holds.
    if (!HttpError.isInstance(error)) throw error
    throw fail(`it cannot be checked: ${error.message}`, error)
  }
  checkIdentity(jws.payload, leaf, baseUrl, fail)
  checkTimes(jws.payload, now, fail)
  checkEndpoints(
    jws.payload,
    options.unsignedMetadata,
    options.allowInsecureLocalhost === true,
    fail,
  )
  return {
    claims: frozenJsonCopy(jws.payload),
    serverCertificate: chain.leaf,
    chainNotAfter: earliestNotAfter(chain),
  }
}

/** When the first certificate of a validated path expires. */
function earliestNotAfter(chain: VerifiedCertificateChain): Date {
  const times = [chain.leaf, ...chain.path].map((certificate) => certificate.notAfter.getTime())
  return new Date(Math.min(...times))
}

type Failure = (check: string, cause?: unknown) => DiscoveryError

function decodeSignedMetadata(jwt: unknown, fail: Failure): DecodedJws {
  if (typeof jwt !== 'string') throw fail('it is not a string')
  const header = readJwsHeader(jwt)
  if (header === undefined || jwt.split('.').length !== 3) {
    throw fail('it is not a compact JWS with a JSON object header')
  }
  // UDAP: signed_metadata SHALL be signed with RS256; anything else (including "none") is refused
  // before the signature is even looked at.
  if (header.alg !== 'RS256') {
    throw fail(`header alg must be "RS256", not ${describeValue(header.alg)}`)
  }
  // RFC 7515 §4.1.11: a recipient that does not understand a listed extension must reject.
  if (header.crit !== undefined)
    throw fail('header crit names extensions this client does not process')
  try {
    return decodeCompactJws(jwt)
  } catch (error) {
    throw fail(`it is not a compact JWS (${errorMessage(error)})`, error)
  }
}

/** The identifier octet of a DER SEQUENCE: the first octet of every DER certificate. */
const derSequenceTag = 0x30

function readCertificateChain(x5c: unknown, fail: Failure): Uint8Array[] {
  if (!Array.isArray(x5c) || x5c.length === 0) {
    throw fail('header x5c must be a non-empty array of certificates')
  }
  return x5c.map((entry: unknown, index) => {
    // x5c entries are standard base64 (RFC 7515 §4.1.6), not base64url, of DER, never of PEM
    // text: a backend given bytes that read like PEM would take the PEM blocks in them (skipping
    // any text before, splitting a chain). A DER certificate starts with its SEQUENCE tag; the
    // backend reads the rest as strict DER.
    const der = typeof entry === 'string' ? base64Decode(entry) : undefined
    if (der === undefined || der.length === 0) {
      throw fail(`header x5c[${index}] is not standard-base64 DER`)
    }
    if (der[0] !== derSequenceTag) {
      throw fail(
        `header x5c[${index}] is not an X.509 certificate: x5c entries are standard base64 of DER, not of PEM text or other bytes`,
      )
    }
    return der
  })
}

async function parseLeaf(
  crypto: CryptoBackend,
  certificates: readonly Uint8Array[],
  fail: Failure,
): Promise<CertificateInfo> {
  try {
    return await crypto.parseCertificate(certificates[0] as Uint8Array)
  } catch (error) {
    if (!CryptoError.isInstance(error)) throw error
    throw fail('header x5c[0] is not an X.509 certificate', error)
  }
}

async function verifyJwsSignature(
  crypto: CryptoBackend,
  jws: DecodedJws,
  leaf: CertificateInfo,
  fail: Failure,
): Promise<void> {
  let isValid: boolean
  try {
    isValid = await crypto.verifySignature({
      algorithm: 'RS256',
      publicKeySpki: leaf.publicKeySpki,
      data: jws.signingInput,
      signature: jws.signature,
    })
  } catch (error) {
    if (!CryptoError.isInstance(error)) throw error
    throw fail('the RS256 signature cannot be checked with the key of x5c[0]', error)
  }
  if (!isValid) throw fail('the signature does not verify with the key of x5c[0]')
}

interface ChainTrust extends UdapTrustInputs {
  readonly transport: {
    readonly fetch?: FetchLike | undefined
    readonly timeoutMs?: number | undefined
    readonly logger?: Logger | undefined
  }
}

async function verifyChain(
  crypto: CryptoBackend,
  certificates: readonly Uint8Array[],
  trust: ChainTrust,
  now: Date,
  fail: Failure,
): Promise<VerifiedCertificateChain> {
  const { revocation, transport } = trust
  try {
    return await crypto.verifyCertificateChain({
      chain: certificates,
      trustAnchors: trust.trustedAnchors,
      crls: trust.crls ?? [],
      at: now,
      ...(revocation?.fetch === false
        ? {}
        : {
            revocation: createOnlineRevocation({
              cache: revocation?.cache,
              fetch: transport.fetch,
              timeoutMs: transport.timeoutMs,
              logger: transport.logger,
            }),
          }),
    })
  } catch (error) {
    if (CertificateChainError.isInstance(error)) {
      throw fail(
        `the x5c certificate chain is not trusted (${error.reason}): ${error.message}`,
        error,
      )
    }
    if (CryptoError.isInstance(error)) {
      throw fail(
        `the x5c certificate chain cannot be checked (${error.reason}): ${error.message}`,
        error,
      )
    }
    // A ConfigurationError (a trust input of the wrong kind) is the caller's to fix: as is.
    throw error
  }
}

function checkIdentity(
  claims: Readonly<Record<string, unknown>>,
  leaf: CertificateInfo,
  baseUrl: string,
  fail: Failure,
): void {
  const { iss, sub } = claims
  if (typeof iss !== 'string' || iss === '') throw fail('iss is missing')
  // IG 7.1.5: URIs are compared as exact strings; a client is not required to normalise.
  if (!leaf.subjectAltNameUris.includes(iss)) {
    throw fail(
      `iss ${describeValue(iss)} is not a URI subject alternative name of the signing certificate (${leaf.subjectAltNameUris.map((uri) => JSON.stringify(uri)).join(', ') || 'none'})`,
    )
  }
  // The base URL comparison ignores a trailing slash on either side (ADR 0003: it is not
  // significant on a base URL); the SAN comparison above stays exact.
  if (normalizeBaseUrl(iss) !== normalizeBaseUrl(baseUrl)) {
    throw fail(
      `iss ${describeValue(iss)} does not equal the base URL ${describeValue(withoutUserInfo(baseUrl))}`,
    )
  }
  if (sub !== iss) throw fail('sub does not equal iss')
}

function checkTimes(claims: Readonly<Record<string, unknown>>, now: Date, fail: Failure): void {
  const { exp, iat, nbf, jti } = claims
  const nowSeconds = now.getTime() / 1000
  if (!isNumericDate(exp)) throw fail('exp is missing or not a number')
  if (exp <= nowSeconds) throw fail('exp is in the past: the signed metadata has expired')
  if (!isNumericDate(iat)) throw fail('iat is missing or not a number')
  if (iat > nowSeconds + signedMetadataClockSkewSeconds) throw fail('iat is in the future')
  if (exp <= iat) throw fail('exp is not after iat')
  if (exp - iat > signedMetadataMaxLifetimeSeconds) {
    throw fail('exp is more than 366 days after iat (IG STU2 allows at most one year)')
  }
  if (nbf !== undefined) {
    if (!isNumericDate(nbf)) throw fail('nbf is not a number')
    if (nbf > nowSeconds + signedMetadataClockSkewSeconds) throw fail('nbf is in the future')
  }
  if (typeof jti !== 'string' || jti === '') throw fail('jti is missing')
}

function checkEndpoints(
  claims: Readonly<Record<string, unknown>>,
  unsignedMetadata: unknown,
  allowInsecureLocalhost: boolean,
  fail: Failure,
): void {
  const names = ['token_endpoint', 'registration_endpoint']
  // IG STU2: authorization_endpoint SHALL be signed when the unsigned document has one; a
  // signed one is checked either way, since it is the one the client will use. Blank is absent.
  const unsignedAuthorizationEndpoint = isJsonObject(unsignedMetadata)
    ? endpointMember(unsignedMetadata.authorization_endpoint)
    : undefined
  if (
    unsignedAuthorizationEndpoint !== undefined ||
    endpointMember(claims.authorization_endpoint) !== undefined
  ) {
    names.push('authorization_endpoint')
  }
  for (const name of names) {
    const problem = endpointProblem(claims[name], allowInsecureLocalhost)
    if (problem !== undefined) {
      throw fail(
        problem === 'is missing'
          ? `the signed claims lack ${name}`
          : `the signed ${name} ${problem}`,
      )
    }
  }
}

/** RFC 7519 NumericDate: a finite JSON number of seconds. */
function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : 'malformed'
}
