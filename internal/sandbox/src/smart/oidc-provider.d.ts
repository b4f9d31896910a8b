/**
 * The part of `oidc-provider` 9.x that the SMART sandbox uses, typed by hand: the package ships
 * no declarations and the DefinitelyTyped ones lag behind its major versions. Files that import
 * `oidc-provider` reference this file, so every program that compiles the sandbox sources
 * (including other workspace packages' tests) sees these types.
 *
 * Only members the sandbox calls are declared; the configuration object is checked by the
 * provider itself at construction.
 *
 * @see https://github.com/panva/node-oidc-provider/blob/v9.x/docs/README.md
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  /** Storage payload of any provider model, as handed to an adapter. */
  export interface AdapterPayload {
    readonly [member: string]: unknown
    readonly grantId?: string
    readonly userCode?: string
    readonly uid?: string
    readonly jti?: string
    consumed?: number
  }

  /** The storage interface a provider adapter implements (one instance per model name). */
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresInSeconds?: number): Promise<void>
    find(id: string): Promise<AdapterPayload | undefined>
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>
    findByUid(uid: string): Promise<AdapterPayload | undefined>
    consume(id: string): Promise<void>
    destroy(id: string): Promise<void>
    revokeByGrantId(grantId: string): Promise<void>
  }

  /** A client as the provider resolved it (camelCase metadata). */
  export interface ProviderClient {
    readonly clientId: string
    readonly clientAuthMethod: string
    readonly grantTypes: readonly string[]
    readonly redirectUris: readonly string[]
    readonly jwksUri?: string | undefined
  }

  /** The request parameters the provider accepted for the current route. */
  export interface ProviderParams {
    readonly [name: string]: unknown
    readonly scope?: string | undefined
    readonly grant_type?: string | undefined
    readonly launch?: string | undefined
    readonly aud?: string | undefined
  }

  /** Fields shared by stored tokens. */
  export interface StoredToken {
    readonly jti: string
    readonly clientId?: string | undefined
    readonly grantId?: string | undefined
    readonly accountId?: string | undefined
    readonly scope?: string | undefined
    readonly aud?: string | readonly string[] | undefined
    readonly extra?: Readonly<Record<string, unknown>> | undefined
    readonly isExpired: boolean
  }

  /** `ctx.oidc`: what the provider knows about the request being handled. */
  export interface OidcContext {
    readonly provider: Provider
    readonly route?: string | undefined
    /** The result the last interaction finished with (while resuming an authorization). */
    readonly result?: InteractionResult | undefined
    readonly params?: ProviderParams | undefined
    readonly client?: ProviderClient | undefined
    readonly entities: {
      readonly AuthorizationCode?: StoredToken | undefined
      readonly RefreshToken?: StoredToken | undefined
      readonly RotatedRefreshToken?: StoredToken | undefined
      readonly AccessToken?: StoredToken | undefined
      readonly ClientCredentials?: StoredToken | undefined
      readonly Grant?: { readonly jti: string } | undefined
    }
  }

  /** The subset of a Koa context the sandbox reads and writes. */
  export interface ProviderContext {
    /** The Node request the provider is handling (the front's replayed copy). */
    readonly req: IncomingMessage
    readonly method: string
    readonly path: string
    status: number
    body: unknown
    readonly oidc?: OidcContext | undefined
  }

  export type ProviderMiddleware = (
    context: ProviderContext,
    next: () => Promise<void>,
  ) => Promise<void>

  /** A token the `extraTokenClaims` hook receives. */
  export interface IssuedToken {
    readonly kind: string
    readonly grantId?: string | undefined
    readonly clientId?: string | undefined
  }

  /** What `interactionDetails` returns. */
  export interface InteractionDetails {
    readonly uid: string
    readonly prompt: {
      readonly name: string
      readonly reasons: readonly string[]
      readonly details: {
        readonly missingOIDCScope?: readonly string[]
        readonly missingOIDCClaims?: readonly string[]
        readonly missingResourceScopes?: Readonly<Record<string, readonly string[]>>
      }
    }
    readonly params: ProviderParams
    readonly session?: { readonly accountId: string } | undefined
    readonly grantId?: string | undefined
  }

  /** The result an interaction hands back to the provider. */
  export interface InteractionResult {
    readonly login?: { readonly accountId: string }
    readonly consent?: { readonly grantId?: string }
    readonly error?: string
    readonly error_description?: string
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string })
    readonly jti: string
    static find(id: string): Promise<Grant | undefined>
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: readonly string[]): void
    addResourceScope(resource: string, scope: string): void
    save(): Promise<string>
  }

  export interface TokenModel {
    find(value: string): Promise<StoredToken | undefined>
  }

  export class Provider {
    constructor(issuer: string, configuration: object)
    readonly issuer: string
    readonly Grant: typeof Grant
    readonly AccessToken: TokenModel
    readonly ClientCredentials: TokenModel
    readonly Client: { validate(metadata: object): Promise<void> }
    use(middleware: ProviderMiddleware): void
    on(event: 'server_error', listener: (context: ProviderContext, error: Error) => void): this
    callback(): (request: IncomingMessage, response: ServerResponse) => Promise<void>
    interactionDetails(
      request: IncomingMessage,
      response: ServerResponse,
    ): Promise<InteractionDetails>
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
  }

  /** An OAuth error the provider turns into an error response or an error redirect. */
  export interface OIDCProviderError extends Error {
    readonly error: string
    readonly error_description?: string | undefined
    readonly status: number
  }

  /** Error classes; each constructor's first argument is the `error_description`. */
  export const errors: {
    readonly InvalidRequest: new (description: string, status?: number) => OIDCProviderError
    readonly InvalidScope: new (description: string, scope?: string) => OIDCProviderError
    /** The argument is a server-side detail; the response always says "client authentication failed". */
    readonly InvalidClientAuth: new (
      detail: string,
    ) => OIDCProviderError
    readonly InvalidClientMetadata: new (description: string) => OIDCProviderError
    readonly InvalidTarget: new (description?: string) => OIDCProviderError
    readonly UnauthorizedClient: new (description?: string) => OIDCProviderError
  }

  export default Provider
}
