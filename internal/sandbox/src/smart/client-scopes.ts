/// <reference path="./oidc-provider.d.ts" />
import type { IncomingMessage } from 'node:http'
import type { ProviderMiddleware } from 'oidc-provider'
import { splitScopes } from './smart-scopes.js'

/**
 * The `scope` each client registered, kept beside the provider.
 *
 * oidc-provider only accepts its own static (OpenID Connect) scopes in client metadata and
 * refuses `system/Patient.rs` with `invalid_client_metadata`. So the sandbox keeps `scope` out
 * of what the provider stores, remembers it here, enforces it itself (requested scopes must be
 * registered ones) and echoes it in the registration response.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-2
 */
export class ClientScopeRegistry {
  readonly #scopes = new Map<string, ReadonlySet<string>>()
  readonly #pendingRegistrations = new WeakMap<IncomingMessage, string>()

  /** Records the registered scope of a client. */
  register(clientId: string, scope: string): void {
    this.#scopes.set(clientId, new Set(splitScopes(scope)))
  }

  /** The scopes a client may be granted, or `undefined` when it registered no `scope`. */
  allowed(clientId: string): ReadonlySet<string> | undefined {
    return this.#scopes.get(clientId)
  }

  /** Remembers the `scope` the front removed from a registration request before forwarding it. */
  holdRegistrationScope(request: IncomingMessage, scope: string): void {
    this.#pendingRegistrations.set(request, scope)
  }

  /**
   * Provider middleware: when a registration succeeds, records the held scope for the new
   * client and puts `scope` back into the response.
   */
  registrationMiddleware(): ProviderMiddleware {
    return async (context, next) => {
      await next()
      if (context.oidc?.route !== 'registration' || context.status !== 201) return
      const scope = this.#pendingRegistrations.get(context.req)
      const body = context.body
      if (scope === undefined || typeof body !== 'object' || body === null) return
      const clientId = (body as { client_id?: unknown }).client_id
      if (typeof clientId !== 'string') return
      this.register(clientId, scope)
      context.body = { ...body, scope }
    }
  }

  clear(): void {
    this.#scopes.clear()
  }
}
