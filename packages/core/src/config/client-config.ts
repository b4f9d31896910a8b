import { readOptions } from '../checks/options-object.js'
import type { CertificateInput, PrivateKeyInput } from '../crypto/backend.js'
import { ConfigurationError } from '../errors/configuration-error.js'
import { isJsonObject } from '../http/json-object.js'
import {
  configuredHostProblem,
  configuredUrlProblem,
  normalizeBaseUrl,
  parseAbsoluteUrl,
  withoutUserInfo,
} from '../http/url-policy.js'
import { redacted } from '../logging/redacted.js'

/**
 * The plain-object form of a {@link ClientConfig}: the spec's attributes in camelCase. `null`
 * counts as absent.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#configuration
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
  /**
   * UDAP: leaf-first certificate chain (PEM, DER or the backend's certificate objects). One PEM
   * string may hold several certificates (a chain file): every block is read, in order.
   */
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
const knownAttributes = /* @__PURE__ */ Object.keys(kinds)

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

/** Marks every ClientConfig, from any installed copy of this package. */
const brand = Symbol.for('fhir-auth.client-config')

/** `instanceof ClientConfig`, false for a Proxy whose traps throw (the constructor says why). */
function isClientConfig(value: unknown): value is ClientConfig {
  try {
    return value instanceof ClientConfig
  } catch {
    return false
  }
}

/** True for a ClientConfig of another copy of this package (this copy's are `instanceof`). */
function isForeignClientConfig(value: unknown): boolean {
  try {
    return (value as Record<symbol, unknown>)[brand] === true
  } catch {
    // A Proxy whose get trap throws is no ClientConfig.
    return false
  }
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}

/** Attributes that are never shown: not in messages, `toJSON` or `util.inspect`. */
function isSecret(kind: AttributeKind | undefined): boolean {
  return kind === 'secret' || kind === 'key'
}

/** True when `value` (not `undefined`) is acceptable for an attribute of this kind. */
function accepts(kind: AttributeKind, value: unknown): boolean {
  if (kind === 'scopes' || kind === 'chain') {
    return (
      Array.isArray(value) &&
      value.every((entry) => typeof entry === 'string' || (kind === 'chain' && isJsonObject(entry)))
    )
  }
  if (kind === 'boolean') return typeof value === 'boolean'
  if (typeof value !== 'string') return kind === 'key' && isJsonObject(value)
  if (kind !== 'url' && kind !== 'redirect') return true
  const protocol = parseAbsoluteUrl(value)?.protocol
  return kind === 'url'
    ? protocol === 'https:' || protocol === 'http:'
    : protocol !== undefined && !scriptSchemes.includes(protocol)
}

/**
 * Checks one attribute; `null` is absent; arrays are copied and frozen. URLs also pass the
 * URL policy (HTTPS or loopback HTTP under `allowInsecureLocalhost`, no user info) now rather
 * than when first fetched.
 */
function readAttribute(name: string, value: unknown, allowInsecureLocalhost: boolean): unknown {
  if (value === undefined || value === null) return undefined
  const kind = kinds[name] as AttributeKind
  const problem = !accepts(kind, value)
    ? `must be ${expectations[kind]}`
    : kind === 'url'
      ? configuredUrlProblem(value as string, allowInsecureLocalhost)
      : kind === 'redirect'
        ? configuredHostProblem(value as string)
        : undefined
  if (problem === undefined) return Array.isArray(value) ? Object.freeze([...value]) : value
  const secret = isSecret(kind)
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
    message: `${name} ${problem}, got ${shown}`,
  })
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
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#configuration
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0003-http-policy.md
 */
export class ClientConfig {
  // Declared, not initialised: the constructor assigns them in the order of `kinds`.
  declare readonly baseUrl: string | undefined
  declare readonly clientId: string | undefined
  declare readonly redirectUri: string | undefined
  declare readonly scopes: readonly string[] | undefined
  declare readonly certificateChain: readonly CertificateInput[] | undefined
  declare readonly kid: string | undefined
  declare readonly jwtAlgorithm: string | undefined
  declare readonly jwksUri: string | undefined
  /** The SMART `aud` value: the configured issuer, else `baseUrl`. */
  declare readonly issuer: string | undefined
  declare readonly authorizationEndpoint: string | undefined
  declare readonly tokenEndpoint: string | undefined
  declare readonly allowInsecureLocalhost: boolean
  /**
   * Every attribute as checked (`baseUrl` normalised, `issuer` as configured): the secrets'
   * only home, and what {@link with} starts from.
   */
  readonly #values: Readonly<Record<string, unknown>>

  /**
   * @throws ConfigurationError on `config` when it is not an object; on an unknown attribute
   *   (own members only: `constructor` and `__proto__` are unknown too) with "unknown attribute"
   *   and the valid names; else naming the first attribute with a wrong type, a malformed URL or
   *   a URL the policy refuses.
   */
  constructor(input: ClientConfigInput) {
    const own = readOptions(input, 'ClientConfig', {
      known: knownAttributes,
      required: true,
      attribute: 'config',
      description: 'config (a ClientConfig or a plain object)',
    })
    // Own members only, so a polluted Object.prototype cannot configure a client. A ClientConfig
    // of another installed copy of this package keeps its secrets behind accessors on its
    // prototype: it is read as it answers.
    const source: Record<string, unknown> = isForeignClientConfig(input) ? (input as never) : own
    // Read before the others so URLs are judged under it; a wrong type is reported in its turn.
    const allowInsecureLocalhost = source.allowInsecureLocalhost === true
    const values: Record<string, unknown> = {}
    for (const name of knownAttributes) {
      values[name] = readAttribute(name, source[name], allowInsecureLocalhost)
    }
    if (values.baseUrl !== undefined) values.baseUrl = normalizeBaseUrl(values.baseUrl as string)
    this.#values = values
    const self = this as unknown as Record<string, unknown>
    for (const name of knownAttributes) if (!isSecret(kinds[name])) self[name] = values[name]
    self.issuer = values.issuer ?? values.baseUrl
    self.allowInsecureLocalhost = allowInsecureLocalhost
    Object.freeze(this)
  }

  static {
    Object.defineProperty(ClientConfig.prototype, brand, { value: true })
  }

  /** Returns `value` if it already is a `ClientConfig`, else builds one from the plain object. */
  static from(value: ClientConfig | ClientConfigInput): ClientConfig {
    return isClientConfig(value) ? value : new ClientConfig(value)
  }

  /** The client secret (confidential symmetric clients). Not enumerable, never serialised. */
  get clientSecret(): string | undefined {
    return this.#values.clientSecret as string | undefined
  }

  /** The private key. Not enumerable, never serialised. */
  get privateKey(): PrivateKeyInput | undefined {
    return this.#values.privateKey as PrivateKeyInput | undefined
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
    return new ClientConfig({ ...this.#values, ...changes })
  }

  /** A plain object safe to log: secrets replaced by `[REDACTED]`, certificates counted. */
  toJSON(): Record<string, unknown> {
    const output: Record<string, unknown> = {}
    for (const name of knownAttributes) {
      const value = (this as unknown as Record<string, unknown>)[name]
      const kind = kinds[name]
      if (value !== undefined) {
        output[name] = isSecret(kind)
          ? redacted
          : kind === 'chain'
            ? `[${(value as unknown[]).length} certificate(s)]`
            : value
      }
    }
    return output
  }

  /** Node's `util.inspect` shows the redacted form. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ClientConfig ${JSON.stringify(this.toJSON(), null, 2)}`
  }
}
