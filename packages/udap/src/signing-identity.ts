import {
  type ParsedCertificate,
  parseCertificate,
  splitCertificateInput,
  validateOwnCertificateChain,
} from '@fhir-auth/core/backend'
import {
  CertificateChainError,
  type CertificateInfo,
  type CertificateInput,
  ConfigurationError,
  type CryptoBackend,
  CryptoError,
  isJwsSigner,
  type JwsSigner,
  type PrivateKeyInput,
} from '@fhir-auth/core/essentials'
import { describeKind, readOptions, readUriHost, uriHostRule } from '@fhir-auth/core/internal'
import { requireDate } from '@fhir-auth/core/internal/on-demand'
import { requireCryptoBackend } from './option-checks.js'
import { isAbsoluteUri } from './uri.js'

/** Options of {@link prepareUdapSigner}. */
export interface PrepareUdapSignerOptions {
  readonly crypto: CryptoBackend
  /** The private key of the leaf certificate (PEM, JWK, CryptoKey, KeyObject or a JwsSigner). */
  readonly privateKey: PrivateKeyInput | undefined
  /**
   * The client certificate chain, leaf first, each certificate followed by its issuer. A PEM
   * entry may hold several certificates (a chain file): they are read in order.
   */
  readonly certificateChain: readonly CertificateInput[] | undefined
  /** The client URI: `iss` of software statements; must be a URI SAN of the leaf. */
  readonly clientUri: string
  /**
   * Algorithms the server accepts for this JWT: `registration_endpoint_jwt_signing_alg_values_supported`
   * for software statements, `token_endpoint_auth_signing_alg_values_supported` for
   * authentication tokens. Empty means no constraint.
   */
  readonly advertisedAlgorithms: readonly string[]
  /** An explicit algorithm (the config's `jwtAlgorithm`); else chosen from key and server. */
  readonly algorithm?: string | undefined
  /** The time the certificates must be valid at. */
  readonly now: Date
}

/** What {@link prepareUdapSigner} returns. */
export interface UdapSigningIdentity {
  /** Signs with the leaf's key; `certificateChain` is the DER chain for `x5c`, leaf first. */
  readonly signer: JwsSigner
  /** The parsed leaf certificate. */
  readonly leaf: CertificateInfo
}

/**
 * Checks a client's signing identity and turns it into a {@link JwsSigner} for UDAP JWTs,
 * before anything is signed or sent:
 *
 * 1. `privateKey` and a non-empty `certificateChain` are given (a `JwsSigner` given as
 *    `privateKey` may carry the chain itself);
 * 2. every certificate parses, and the chain passes the path policy without trust and
 *    revocation (core's `validateOwnCertificateChain`, ADR 0004): leaf first and
 *    issuer-ordered (`order`), each certificate's signature verified with the next one's key
 *    (`bad-signature`), no critical extension the policy does not understand
 *    (`unknown-critical-extension`), issuers are CAs (`not-a-ca`) with `keyCertSign` when they
 *    have a keyUsage and the leaf has `digitalSignature` when it has one (`key-usage`), path
 *    length (`path-length`) and name constraints (`name-constraints`) of the CAs in the chain
 *    respected, every certificate valid at `now` (`expired`, `not-yet-valid`) — else a
 *    `CertificateChainError` with that reason naming the certificate: the verdict a server's
 *    path validation would reach, given before anything is signed or sent;
 * 3. `clientUri` is an absolute URI exactly equal to a URI subject alternative name of the
 *    leaf (no normalisation; one certificate may carry several client URIs);
 * 4. the key belongs to the leaf;
 * 5. the algorithm: an explicit `algorithm` must suit the key and the server's list; otherwise
 *    RSA prefers RS256 (then RS384), P-256 uses ES256 and P-384 ES384, among those the server
 *    advertises.
 *
 * Trust in the chain (anchors, revocation) is the server's to judge; the client cannot know
 * the server's anchors.
 *
 * @throws ConfigurationError `privateKey`, `certificateChain`, `clientUri`,
 *   `advertisedAlgorithms`, `now`, or `jwtAlgorithm` (explicit algorithm not usable).
 * @throws CertificateChainError `order`, `bad-signature`, `unknown-critical-extension`,
 *   `not-a-ca`, `key-usage`, `path-length`, `name-constraints`, `expired` or `not-yet-valid`,
 *   with the certificate's subject.
 * @throws CryptoError `key-certificate-mismatch`; `invalid-key`, `unsupported-key` or
 *   `no-common-algorithm` from the backend.
 * @example
 * ```ts
 * const { signer } = await prepareUdapSigner({
 *   crypto,
 *   privateKey: clientKeyPem,
 *   certificateChain: [clientCertificatePem, intermediatePem],
 *   clientUri: 'https://client.example.org/app',
 *   advertisedAlgorithms: metadata.registrationEndpointJwtSigningAlgValuesSupported,
 *   now: new Date(),
 * })
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#software-statement
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html#jwt-headers
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.1
 */
export async function prepareUdapSigner(
  input: PrepareUdapSignerOptions,
): Promise<UdapSigningIdentity> {
  const options = readOptions(input, 'prepareUdapSigner', { required: true })
  const crypto = requireCryptoBackend(options.crypto)
  const { privateKey, clientUri } = options
  // An HSM/KMS signer may carry its certificates (`JwsSigner.certificateChain`, docs/guides/crypto-backends.md): then
  // they are the chain, checked like any other, unless the configuration names one.
  const certificateChain =
    options.certificateChain ?? (isJwsSigner(privateKey) ? privateKey.certificateChain : undefined)
  if (privateKey === undefined || privateKey === null) {
    throw new ConfigurationError({
      invalidAttribute: 'privateKey',
      message: 'privateKey is required: the private key of the client certificate signs UDAP JWTs',
    })
  }
  if (!Array.isArray(certificateChain) || certificateChain.length === 0) {
    throw new ConfigurationError({
      invalidAttribute: 'certificateChain',
      message: `certificateChain is required: a non-empty array of certificates, leaf first, not ${describeKind(certificateChain)}`,
    })
  }
  const advertisedAlgorithms = checkAdvertisedAlgorithms(options.advertisedAlgorithms)
  const now = requireDate(options.now, 'now')
  const certificates = await parseChain(crypto, certificateChain)
  await checkOwnChain(crypto, certificates, now)
  const leaf = certificates[0] as CertificateInfo
  checkClientUri(clientUri, leaf)
  if (!(await crypto.keyMatchesCertificate(privateKey, leaf.der))) {
    throw new CryptoError(
      'key-certificate-mismatch',
      `privateKey does not belong to the leaf certificate (${leaf.subject}); the leaf must come first in certificateChain`,
    )
  }
  const der = Object.freeze(certificates.map((certificate) => certificate.der))
  const imported = await crypto.importSigner(privateKey, {
    profile: 'udap',
    algorithm: options.algorithm,
    advertisedAlgorithms,
    certificateChain: der,
  })
  // The x5c chain is always the one checked here, whatever the backend attached.
  const signer: JwsSigner = Object.freeze({
    alg: imported.alg,
    certificateChain: der,
    sign: (signingInput: Uint8Array) => imported.sign(signingInput),
  })
  return Object.freeze({ signer, leaf })
}

function checkAdvertisedAlgorithms(value: unknown): readonly string[] {
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value
  throw new ConfigurationError({
    invalidAttribute: 'advertisedAlgorithms',
    message: 'advertisedAlgorithms must be the array of algorithm names the server advertises',
  })
}

/**
 * Parses the chain entry by entry; a PEM entry holding several certificates (a chain file,
 * leaf first) gives all of them, in order.
 */
async function parseChain(
  crypto: CryptoBackend,
  chain: readonly CertificateInput[],
): Promise<CertificateInfo[]> {
  const certificates: CertificateInfo[] = []
  for (const [index, entry] of chain.entries()) {
    try {
      for (const certificate of splitCertificateInput(entry)) {
        certificates.push(await crypto.parseCertificate(certificate as CertificateInput))
      }
    } catch (error) {
      if (!(CryptoError.isInstance(error) || ConfigurationError.isInstance(error))) throw error
      throw new ConfigurationError(
        {
          invalidAttribute: 'certificateChain',
          message: `certificateChain[${index}] is not a certificate the crypto backend can read`,
        },
        { cause: error },
      )
    }
  }
  return certificates
}

/**
 * The path policy without trust and revocation, on core's parse of the DER the backend read
 * (the policy needs fields `CertificateInfo` does not carry), with the backend's signature checks.
 */
async function checkOwnChain(
  crypto: CryptoBackend,
  certificates: readonly CertificateInfo[],
  now: Date,
): Promise<void> {
  const parsed: ParsedCertificate[] = []
  for (const [index, certificate] of certificates.entries()) {
    try {
      parsed.push(parseCertificate(certificate.der))
    } catch (error) {
      if (!CryptoError.isInstance(error)) throw error
      throw new ConfigurationError(
        {
          invalidAttribute: 'certificateChain',
          message: `certificateChain[${index}] is not a certificate the path policy can read`,
        },
        { cause: error },
      )
    }
  }
  try {
    await validateOwnCertificateChain({ chain: parsed, at: now }, (check) =>
      crypto.verifySignature(check),
    )
  } catch (error) {
    if (!CertificateChainError.isInstance(error)) throw error
    throw new CertificateChainError(
      error.reason,
      `certificateChain is refused before anything is signed (${error.reason}): ${error.message}`,
      error.subject,
      { cause: error },
    )
  }
}

function checkClientUri(clientUri: unknown, leaf: CertificateInfo): void {
  const sans = leaf.subjectAltNameUris
  if (!isAbsoluteUri(clientUri)) {
    // A URI whose host the URL parser reads otherwise (`https://api.example.org./`) says so.
    const rule = typeof clientUri === 'string' && readUriHost(clientUri) === undefined
    throw new ConfigurationError({
      invalidAttribute: 'clientUri',
      validValues: sans,
      message: rule
        ? `clientUri ${uriHostRule}: a URI subject alternative name whose host requests would not reach as written cannot identify the client`
        : 'clientUri must be an absolute URI: one of the URI subject alternative names of the client certificate',
    })
  }
  // IG 7.1.5: exact string comparison; case and trailing slashes matter.
  if (!sans.includes(clientUri)) {
    throw new ConfigurationError({
      invalidAttribute: 'clientUri',
      invalidValue: clientUri,
      validValues: sans,
      message: `clientUri ${JSON.stringify(clientUri)} is not a URI subject alternative name of the client certificate (${sans.map((uri) => JSON.stringify(uri)).join(', ') || 'it has none'})`,
    })
  }
}
