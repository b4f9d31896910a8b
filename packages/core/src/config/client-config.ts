import type { CertificateInput, PrivateKeyInput } from '../crypto/backend.js'
import { ConfigurationError } from '../errors/configuration-error.js'
import { parseAbsoluteUrl } from '../http/url-policy.js'
import { redacted } from '../logging/redact.js'

/**
 * The plain-object form of a {@link ClientConfig}: the spec's attributes in camelCase. `null`
 * counts as absent.
 *
 * @see packages/core/README.md#configuration in the fhir-auth repository
 */
export interface ClientConfigInput {
  /** FHIR base URL; discovery (SMART and UDAP) starts here. */
  readonly baseUrl?: string | null | undefined
  readonly clientId?: string | null | undefined
  readonly redirectUri?: string | null | undefined
  /** Default scopes. */
  readonly scopes?: readonly string[] | null | undefined
  /** For `confidential_symmetric` clients. */
  readonly clientSecret?: string | null | undefined
  /** For asymmetric clients, backend services and UDAP signing. */
  readonly privateKey?: PrivateKeyInput | null | undefined
  /** UDAP: leaf-first certificate chain (PEM, DER or the backend's certificate objects). */
  readonly certificateChain?: readonly CertificateInput[] | null | undefined
  /** Key id matching the registered public key (SMART assertions). */
  readonly kid?: string | null | undefined
  /** SMART: RS384 or ES384. UDAP: RS256, RS384, ES256 or ES384. Chosen from the key when absent. */
  readonly jwtAlgorithm?: string | null | undefined
  /** The client's JWKS URL; becomes the `jku` header of SMART client assertions. */
  readonly jwksUri?: string | null | undefined
  /** SMART `aud`; defaults to `baseUrl`. */
  readonly issuer?: string | null | undefined
  readonly authorizationEndpoint?: string | null | undefined
  readonly tokenEndpoint?: string | null | undefined
  /** Explicit development policy: permit HTTP to loopback hosts. Default false. */
  readonly allowInsecureLocalhost?: boolean | null | undefined
}

const stringAttributes = ['clientId', 'clientSecret', 'kid', 'jwtAlgorithm'] as const
const urlAttributes = [
  'baseUrl',
  'redirectUri',
  'jwksUri',
  'issuer',
  'authorizationEndpoint',
  'tokenEndpoint',
] as const
const knownAttributes: readonly string[] = [
  ...urlAttributes,
  ...stringAttributes,
  'scopes',
  'privateKey',
  'certificateChain',
  'allowInsecureLocalhost',
]
const secretAttributes = new Set(['clientSecret', 'privateKey'])

/**
 * The resolved, validated and frozen client configuration.
 *
 * Construction checks JavaScript types and URL syntax and throws a `ConfigurationError` naming
 * the attribute. Attributes a flow needs (`clientId`, `redirectUri`, `scopes`, keys…) may be
 * absent here: each flow checks what it needs when it runs (spec). URL attributes keep the
 * exact string given (no normalisation: UDAP compares them byte for byte).
 *
 * `toJSON()` and `util.inspect` never show `clientSecret` or `privateKey`.
 *
 * @example
 * ```ts
 * const config = new ClientConfig({
 *   baseUrl: 'https://ehr.example.org/fhir',
 *   clientId: 'my-app',
 *   redirectUri: 'https://app.example.org/callback',
 *   scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser'],
 * })
 * config.issuer // 'https://ehr.example.org/fhir'
 * ```
 * @see packages/core/README.md#configuration in the fhir-auth repository
 */
export class ClientConfig {
  readonly baseUrl: string | undefined
  readonly clientId: string | undefined
  readonly redirectUri: string | undefined
  readonly scopes: readonly string[] | undefined
  readonly certificateChain: readonly CertificateInput[] | undefined
  readonly kid: string | undefined
  readonly jwtAlgorithm: string | undefined
  readonly jwksUri: string | undefined
  /** The SMART `aud` value: the configured issuer, else `baseUrl`. */
  readonly issuer: string | undefined
  readonly authorizationEndpoint: string | undefined
  readonly tokenEndpoint: string | undefined
  readonly allowInsecureLocalhost: boolean
  readonly #clientSecret: string | undefined
  readonly #privateKey: PrivateKeyInput | undefined
  /** The issuer as configured (undefined when it defaults to `baseUrl`), for {@link with}. */
  readonly #configuredIssuer: string | undefined

  /** @throws ConfigurationError naming the first attribute with a wrong type or malformed URL. */
  constructor(input: ClientConfigInput) {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new ConfigurationError({
        invalidAttribute: 'config',
        invalidValue: input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input,
        message: 'config must be a ClientConfig or a plain object of its attributes',
      })
    }
    const source = input as Record<string, unknown>
    for (const name of Object.keys(source)) {
      if (!knownAttributes.includes(name)) {
        throw new ConfigurationError({
          invalidAttribute: name,
          validValues: knownAttributes,
          message: `unknown config attribute ${JSON.stringify(name)}; valid attributes: ${knownAttributes.join(', ')}`,
        })
      }
    }
    const read = (name: string): unknown => (source[name] === null ? undefined : source[name])

    const strings: Record<string, string | undefined> = {}
    for (const name of [...stringAttributes, ...urlAttributes])
      strings[name] = readString(name, read(name))
    for (const name of urlAttributes) checkUrlSyntax(name, strings[name])

    this.baseUrl = strings.baseUrl
    this.clientId = strings.clientId
    this.redirectUri = strings.redirectUri
    this.kid = strings.kid
    this.jwtAlgorithm = strings.jwtAlgorithm
    this.jwksUri = strings.jwksUri
    this.issuer = strings.issuer ?? strings.baseUrl
    this.#configuredIssuer = strings.issuer
    this.authorizationEndpoint = strings.authorizationEndpoint
    this.tokenEndpoint = strings.tokenEndpoint
    this.#clientSecret = strings.clientSecret
    this.scopes = readScopes(read('scopes'))
    this.#privateKey = readPrivateKey(read('privateKey'))
    this.certificateChain = readCertificateChain(read('certificateChain'))
    this.allowInsecureLocalhost = readBoolean(
      'allowInsecureLocalhost',
      read('allowInsecureLocalhost'),
    )
    Object.freeze(this)
  }

  /** Returns `value` if it already is a `ClientConfig`, else builds one from the plain object. */
  static from(value: ClientConfig | ClientConfigInput): ClientConfig {
    return value instanceof ClientConfig ? value : new ClientConfig(value)
  }

  /** The client secret (confidential symmetric clients). Not enumerable, never serialised. */
  get clientSecret(): string | undefined {
    return this.#clientSecret
  }

  /** The private key. Not enumerable, never serialised. */
  get privateKey(): PrivateKeyInput | undefined {
    return this.#privateKey
  }

  /**
   * A copy with some attributes replaced, validated again.
   *
   * @example
   * ```ts
   * const registered = config.with({ clientId: response.client_id })
   * ```
   */
  with(changes: ClientConfigInput): ClientConfig {
    return new ClientConfig({ ...this.#toInput(), issuer: this.#configuredIssuer, ...changes })
  }

  /** A plain object safe to log: secrets replaced by `[REDACTED]`, certificates counted. */
  toJSON(): Record<string, unknown> {
    const output: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(this.#toInput())) {
      if (value === undefined) continue
      if (secretAttributes.has(name)) output[name] = redacted
      else if (name === 'certificateChain')
        output[name] = `[${(value as unknown[]).length} certificate(s)]`
      else output[name] = value
    }
    return output
  }

  /** Node's `util.inspect` shows the redacted form. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ClientConfig ${JSON.stringify(this.toJSON(), null, 2)}`
  }

  #toInput(): ClientConfigInput {
    return {
      baseUrl: this.baseUrl,
      clientId: this.clientId,
      redirectUri: this.redirectUri,
      scopes: this.scopes,
      clientSecret: this.#clientSecret,
      privateKey: this.#privateKey,
      certificateChain: this.certificateChain,
      kid: this.kid,
      jwtAlgorithm: this.jwtAlgorithm,
      jwksUri: this.jwksUri,
      issuer: this.issuer,
      authorizationEndpoint: this.authorizationEndpoint,
      tokenEndpoint: this.tokenEndpoint,
      allowInsecureLocalhost: this.allowInsecureLocalhost,
    }
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function readString(name: string, value: unknown): string | undefined {
  if (value === undefined || typeof value === 'string') return value
  throw new ConfigurationError({
    invalidAttribute: name,
    invalidValue: secretAttributes.has(name) ? `a ${typeName(value)}` : value,
    message: `${name} must be a string, got ${typeName(value)}`,
  })
}

/** Schemes no redirect URI may use: they run code or embed content instead of navigating. */
const scriptSchemes = new Set(['javascript:', 'data:', 'vbscript:', 'blob:', 'file:'])

function checkUrlSyntax(name: string, value: string | undefined): void {
  if (value === undefined) return
  const url = parseAbsoluteUrl(value)
  const fail = (expected: string): never => {
    throw new ConfigurationError({
      invalidAttribute: name,
      invalidValue: value,
      message: `${name} must be ${expected}, got ${JSON.stringify(value.slice(0, 100))}`,
    })
  }
  if (url === undefined) fail('an absolute URL')
  else if (name === 'redirectUri') {
    // Native apps may register private-use schemes (RFC 8252 §7.1); script and content schemes never.
    if (scriptSchemes.has(url.protocol)) fail('an http(s) or private-use scheme URL')
  } else if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    fail('an http(s) URL')
  }
}

function readScopes(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value) || !value.every((scope) => typeof scope === 'string')) {
    throw new ConfigurationError({
      invalidAttribute: 'scopes',
      invalidValue: value,
      message: `scopes must be an array of strings, got ${typeName(value)}${Array.isArray(value) ? ' with non-string entries' : ''}`,
    })
  }
  return Object.freeze([...value])
}

function readPrivateKey(value: unknown): PrivateKeyInput | undefined {
  if (value === undefined) return undefined
  if (
    typeof value === 'string' ||
    (typeof value === 'object' && value !== null && !Array.isArray(value))
  ) {
    return value as PrivateKeyInput
  }
  throw new ConfigurationError({
    invalidAttribute: 'privateKey',
    invalidValue: `a ${typeName(value)}`,
    message: `privateKey must be a PEM string, a JWK, a CryptoKey, a KeyObject or a JwsSigner, got ${typeName(value)}`,
  })
}

function readCertificateChain(value: unknown): readonly CertificateInput[] | undefined {
  if (value === undefined) return undefined
  const valid =
    Array.isArray(value) &&
    value.every(
      (entry) => typeof entry === 'string' || (typeof entry === 'object' && entry !== null),
    )
  if (!valid) {
    throw new ConfigurationError({
      invalidAttribute: 'certificateChain',
      invalidValue: typeName(value),
      message:
        'certificateChain must be an array of PEM strings, DER bytes or certificate objects, leaf first',
    })
  }
  return Object.freeze([...(value as CertificateInput[])])
}

function readBoolean(name: string, value: unknown): boolean {
  if (value === undefined) return false
  if (typeof value === 'boolean') return value
  throw new ConfigurationError({
    invalidAttribute: name,
    invalidValue: value,
    validValues: ['true', 'false'],
    message: `${name} must be a boolean, got ${typeName(value)}`,
  })
}
