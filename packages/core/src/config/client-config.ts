import type { CertificateInput, PrivateKeyInput } from '../crypto/backend.js'
import { ConfigurationError } from '../errors/configuration-error.js'
import { isJsonObject } from '../http/json.js'
import {
  configuredUrlProblem,
  normalizeBaseUrl,
  parseAbsoluteUrl,
  withoutUserInfo,
} from '../http/url-policy.js'
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

/** How each attribute is checked at construction. */
type AttributeKind =
  | 'string'
  | 'secret'
  | 'url'
  | 'redirect'
  | 'scopes'
  | 'key'
  | 'chain'
  | 'boolean'

const kinds: Readonly<Record<string, AttributeKind>> = {
  baseUrl: 'url',
  clientId: 'string',
  redirectUri: 'redirect',
  scopes: 'scopes',
  clientSecret: 'secret',
  privateKey: 'key',
  certificateChain: 'chain',
  kid: 'string',
  jwtAlgorithm: 'string',
  jwksUri: 'url',
  issuer: 'url',
  authorizationEndpoint: 'url',
  tokenEndpoint: 'url',
  allowInsecureLocalhost: 'boolean',
}
const knownAttributes = Object.keys(kinds)

const expectations: Readonly<Record<AttributeKind, string>> = {
  string: 'a string',
  secret: 'a string',
  url: 'an absolute http(s) URL',
  // Native apps may register private-use schemes (RFC 8252 §7.1); script and content schemes never.
  redirect: 'an absolute URL (not javascript:, data:, vbscript:, blob: or file:)',
  scopes: 'an array of strings',
  key: 'a PEM string, a JWK, a CryptoKey, a KeyObject or a JwsSigner',
  chain: 'an array of certificates (PEM, DER or objects), leaf first',
  boolean: 'true or false',
}

const scriptSchemes = ['javascript:', 'data:', 'vbscript:', 'blob:', 'file:']

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}

/** True when `value` (not `undefined`) is acceptable for an attribute of this kind. */
function accepts(kind: AttributeKind, value: unknown): boolean {
  switch (kind) {
    case 'string':
    case 'secret':
      return typeof value === 'string'
    case 'url': {
      const url = typeof value === 'string' ? parseAbsoluteUrl(value) : undefined
      return url?.protocol === 'https:' || url?.protocol === 'http:'
    }
    case 'redirect': {
      const url = typeof value === 'string' ? parseAbsoluteUrl(value) : undefined
      return url !== undefined && !scriptSchemes.includes(url.protocol)
    }
    case 'scopes':
      return Array.isArray(value) && value.every((scope) => typeof scope === 'string')
    case 'key':
      return typeof value === 'string' || isJsonObject(value)
    case 'chain':
      return (
        Array.isArray(value) &&
        value.every((entry) => typeof entry === 'string' || isJsonObject(entry))
      )
    case 'boolean':
      return typeof value === 'boolean'
  }
}

/**
 * Checks one attribute; `null` is absent; arrays are copied and frozen. URLs also pass the
 * URL policy (HTTPS or loopback HTTP under `allowInsecureLocalhost`, no user info) now rather
 * than when first fetched.
 */
function readAttribute(name: string, value: unknown, allowInsecureLocalhost: boolean): unknown {
  if (value === undefined || value === null) return undefined
  const kind = kinds[name] as AttributeKind
  if (kind === 'url' && typeof value === 'string' && accepts(kind, value)) {
    const problem = configuredUrlProblem(value, allowInsecureLocalhost)
    if (problem !== undefined) {
      // User info may be a password: it is replaced before the value is shown (or cut).
      const shown = withoutUserInfo(value)
      throw new ConfigurationError({
        invalidAttribute: name,
        invalidValue: shown,
        message: `${name} ${problem}, got ${JSON.stringify(shown.slice(0, 100))}`,
      })
    }
  }
  if (!accepts(kind, value)) {
    const secret = kind === 'secret' || kind === 'key'
    // User info in anything URL-shaped may be a password: replaced before the value is shown or cut.
    const text =
      typeof value === 'string' && (kind === 'url' || kind === 'redirect')
        ? withoutUserInfo(value)
        : value
    const shown =
      typeof text === 'string' && !secret ? JSON.stringify(text.slice(0, 100)) : typeName(value)
    throw new ConfigurationError({
      invalidAttribute: name,
      // A secret of the wrong type may still be a secret: only its type is reported.
      invalidValue: secret ? `a ${typeName(value)}` : kind === 'chain' ? typeName(value) : text,
      validValues: kind === 'boolean' ? ['true', 'false'] : undefined,
      message: `${name} must be ${expectations[kind]}, got ${shown}`,
    })
  }
  return Array.isArray(value) ? Object.freeze([...value]) : value
}

/**
 * The resolved, validated and frozen client configuration.
 *
 * Construction checks JavaScript types and URLs and throws a `ConfigurationError` naming the
 * attribute. Every URL the library may use (`baseUrl`, `issuer`, `jwksUri`,
 * `authorizationEndpoint`, `tokenEndpoint`) must be HTTPS — or HTTP to a loopback host under
 * `allowInsecureLocalhost` — and carry no user info; `redirectUri` must be an absolute URL of a
 * safe scheme (native apps use private-use schemes). Attributes a flow needs (`clientId`,
 * `redirectUri`, `scopes`, keys…) may be absent here: each flow checks what it needs when it
 * runs (spec). `baseUrl` is kept without trailing slashes (a trailing `/` is not significant:
 * `aud`, discovery URLs and the UDAP `iss` comparison use this form); every other URL keeps the
 * exact string given (UDAP compares them byte for byte).
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
 * @see docs/adr/0003-http-policy.md in the fhir-auth repository
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

  /**
   * @throws ConfigurationError naming the first attribute with a wrong type, a malformed URL or
   *   a URL the policy refuses.
   */
  constructor(input: ClientConfigInput) {
    if (!isJsonObject(input)) {
      throw new ConfigurationError({
        invalidAttribute: 'config',
        invalidValue: input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input,
        message: 'config must be a ClientConfig or a plain object',
      })
    }
    for (const name of Object.keys(input)) {
      if (kinds[name] === undefined) {
        throw new ConfigurationError({
          invalidAttribute: name,
          validValues: knownAttributes,
        })
      }
    }
    // Read before the others so URLs are judged under it; a wrong type is reported in its turn.
    const allowInsecureLocalhost = input.allowInsecureLocalhost === true
    const values: Record<string, unknown> = {}
    for (const name of knownAttributes) {
      values[name] = readAttribute(name, input[name], allowInsecureLocalhost)
    }
    const string = (name: string) => values[name] as string | undefined

    const baseUrl = string('baseUrl')
    this.baseUrl = baseUrl === undefined ? undefined : normalizeBaseUrl(baseUrl)
    this.clientId = string('clientId')
    this.redirectUri = string('redirectUri')
    this.scopes = values.scopes as readonly string[] | undefined
    this.certificateChain = values.certificateChain as readonly CertificateInput[] | undefined
    this.kid = string('kid')
    this.jwtAlgorithm = string('jwtAlgorithm')
    this.jwksUri = string('jwksUri')
    this.#configuredIssuer = string('issuer')
    this.issuer = this.#configuredIssuer ?? this.baseUrl
    this.authorizationEndpoint = string('authorizationEndpoint')
    this.tokenEndpoint = string('tokenEndpoint')
    this.allowInsecureLocalhost = values.allowInsecureLocalhost === true
    this.#clientSecret = string('clientSecret')
    this.#privateKey = values.privateKey as PrivateKeyInput | undefined
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
      const kind = kinds[name]
      output[name] =
        kind === 'secret' || kind === 'key'
          ? redacted
          : kind === 'chain'
            ? `[${(value as unknown[]).length} certificate(s)]`
            : value
    }
    return output
  }

  /** Node's `util.inspect` shows the redacted form. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ClientConfig ${JSON.stringify(this.toJSON(), null, 2)}`
  }

  #toInput(): Record<string, unknown> {
    const input: Record<string, unknown> = {}
    for (const name of knownAttributes)
      input[name] = (this as unknown as Record<string, unknown>)[name]
    return input
  }
}
