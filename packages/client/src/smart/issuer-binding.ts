import { IdTokenError, safeUrl, type TransportOptions } from '@fhir-auth/core/essentials'
import { fetchDiscoveryDocument, raceCallerSignal } from '@fhir-auth/core/internal'
import type { SmartMetadata } from '@fhir-auth/smart/launch'
import type { OpenIdProviderHint } from '../identity/openid-provider.js'

/** What the client itself knows its server by: what a claimed issuer may be bound to. */
export interface KnownServer {
  /** The configured `issuer` (`ClientConfig.issuer`: the one set, else `baseUrl`). */
  readonly issuer: string | undefined
  /** The FHIR base URL. */
  readonly baseUrl: string | undefined
}

/** What the server's own discovery says of it, besides the issuer it claims. */
export type ClaimingMetadata = Pick<
  SmartMetadata,
  'authorizationEndpoint' | 'tokenEndpoint' | 'jwksUri' | 'raw'
>

/**
 * The verdict on a claimed issuer. Bound: the issuer, and where its ID token keys are (the
 * SMART configuration's `jwks_uri` when bound by the configuration or the FHIR base URL, the
 * verified `openid-configuration`'s otherwise), and its ID token algorithms (the SMART
 * configuration's, else the `openid-configuration`'s). Unbound: why, in words an error message can end
 * with.
 */
export type IssuerBinding =
  | { readonly bound: true; readonly provider: OpenIdProviderHint }
  | { readonly bound: false; readonly why: string }

/**
 * Decides whether the `issuer` a SMART configuration claims is its server's own. The claim is
 * the server's word only: a hostile server B can name honest server A's issuer, and without
 * this check A's callback (`iss` = A) would pass B's RFC 9207 check and A's users' ID tokens,
 * signed by B's keys, would validate as A's. The issuer is bound when it is
 * 1. the `issuer` configured for this client, or
 * 2. the FHIR base URL (a trailing `/` is insignificant), or
 * 3. an issuer whose `{issuer}/.well-known/openid-configuration` answers with exactly that
 *    issuer and the same `authorization_endpoint` and `token_endpoint` as the SMART
 *    configuration, and the same `jwks_uri` when both name one: the issuer itself vouches for
 *    the endpoints (RFC 8414 §3.3, OIDC Discovery §4.3).
 *
 * Nothing here throws: a document that cannot be read leaves the issuer unbound.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3.3 RFC 8414 §3.3
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfigurationValidation OIDC Discovery §4.3
 * @see https://www.rfc-editor.org/rfc/rfc9207 RFC 9207 (mix-up defence)
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0013-issuer-binding.md ADR 0013
 */
export async function bindSmartIssuer(
  issuer: string,
  metadata: ClaimingMetadata,
  known: KnownServer,
  transport: TransportOptions,
): Promise<IssuerBinding> {
  const algorithms = metadata.raw.id_token_signing_alg_values_supported
  if (issuer === known.issuer || sameBaseUrl(issuer, known.baseUrl)) {
    return { bound: true, provider: { issuer, jwksUri: metadata.jwksUri, algorithms } }
  }
  let document: Record<string, unknown>
  try {
    document = await openIdConfigurationDocument(issuer, transport)
  } catch (error) {
    return unbound(
      issuer,
      error instanceof IdTokenError && error.reason === 'iss'
        ? 'its openid-configuration names another issuer'
        : 'its openid-configuration could not be read',
    )
  }
  const differing = differingMember(metadata, document)
  if (differing !== undefined) {
    return unbound(issuer, `its openid-configuration names another ${differing}`)
  }
  return {
    bound: true,
    provider: {
      issuer,
      jwksUri: text(document.jwks_uri),
      // The SMART configuration may narrow the algorithms; when it is silent, the issuer says.
      algorithms: algorithms ?? document.id_token_signing_alg_values_supported,
    },
  }
}

/**
 * {@link bindSmartIssuer} for one client: decided on first need, shared by concurrent callers
 * (each caller's signal ends only its own wait), and kept once bound. An unbound verdict is not
 * kept, so a document that could not be read is asked for again next time.
 */
export class SmartIssuerBinding {
  readonly #known: () => KnownServer
  readonly #transport: () => TransportOptions
  #bound: IssuerBinding | undefined
  #pending: Promise<IssuerBinding> | undefined

  /** @param transport the client's transport, without a caller's signal (the work is shared). */
  constructor(known: () => KnownServer, transport: () => TransportOptions) {
    this.#known = known
    this.#transport = transport
  }

  async of(
    issuer: string,
    metadata: ClaimingMetadata,
    signal: AbortSignal | undefined,
  ): Promise<IssuerBinding> {
    if (this.#bound !== undefined) return this.#bound
    const shared = () => {
      this.#pending ??= bindSmartIssuer(issuer, metadata, this.#known(), this.#transport()).then(
        (binding) => {
          this.#pending = undefined
          if (binding.bound) this.#bound = binding
          return binding
        },
      )
      return this.#pending
    }
    return raceCallerSignal(shared, signal, safeUrl(openIdConfigurationUrl(issuer)))
  }
}

/** The first of the endpoints (and key set, when both name one) the two documents disagree on. */
function differingMember(
  metadata: ClaimingMetadata,
  document: Record<string, unknown>,
): string | undefined {
  // Both are required members of an openid-configuration: one that lacks them vouches for nothing.
  const authorizationEndpoint = text(document.authorization_endpoint)
  if (
    authorizationEndpoint === undefined ||
    authorizationEndpoint !== metadata.authorizationEndpoint
  ) {
    return 'authorization_endpoint'
  }
  const tokenEndpoint = text(document.token_endpoint)
  if (tokenEndpoint === undefined || tokenEndpoint !== metadata.tokenEndpoint)
    return 'token_endpoint'
  const jwksUri = text(document.jwks_uri)
  if (jwksUri !== undefined && metadata.jwksUri !== undefined && jwksUri !== metadata.jwksUri) {
    return 'jwks_uri'
  }
  return undefined
}

function unbound(issuer: string, detail: string): IssuerBinding {
  return {
    bound: false,
    why: `the issuer ${safeUrl(issuer)} named by the SMART configuration is not bound to this server: it is neither the configured issuer nor the FHIR base URL, and ${detail}`,
  }
}

/** Equal as FHIR base URLs: a trailing `/` on either is insignificant. */
function sameBaseUrl(issuer: string, baseUrl: string | undefined): boolean {
  return baseUrl !== undefined && withoutTrailingSlash(issuer) === withoutTrailingSlash(baseUrl)
}

function withoutTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/**
 * The `openid-configuration` document of `issuer`, as served, once its `issuer` member is
 * exactly the one asked for (OIDC Discovery §4.3: otherwise the document MUST NOT be used).
 *
 * @throws IdTokenError `jwks` when the document cannot be fetched, `iss` when it is another
 *   issuer's.
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfigurationValidation OIDC Discovery §4.3
 */
export async function openIdConfigurationDocument(
  issuer: string,
  transport: TransportOptions,
): Promise<Record<string, unknown>> {
  const url = openIdConfigurationUrl(issuer)
  let document: Record<string, unknown>
  try {
    document = await fetchDiscoveryDocument({ url, label: 'OpenID discovery', transport })
  } catch (error) {
    throw new IdTokenError('jwks', `the OpenID configuration of ${issuer} could not be read`, {
      cause: error,
    })
  }
  if (document.issuer !== issuer) {
    throw new IdTokenError('iss', `the OpenID configuration at ${url} is for another issuer`)
  }
  return document
}

/** `{issuer}/.well-known/openid-configuration` (a trailing `/` of the issuer is dropped first). */
export function openIdConfigurationUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
}
