import type { ServerResponse } from 'node:http'
import { parseJsonObject } from '../http/body-format.js'
import type { RecordedRequest } from '../http/recorded-request.js'
import { rewriteResponseBody } from './id-token-variants.js'

/**
 * What a test can do to the SMART sandbox's token endpoint while it runs
 * (`sandbox.setTokenEndpointHooks`): hold a request, or change what the provider answered.
 */
export interface TokenEndpointHooks {
  /**
   * Awaited for every token request after it is recorded and before the provider sees it: a
   * promise that never settles is a token endpoint that hangs for that request (the connection
   * stays open until the client gives up or the sandbox closes).
   */
  readonly beforeRequest?: (request: RecordedRequest) => Promise<void> | void
  /**
   * Rewrites the JSON object of every token response, success or error (e.g. drops
   * `expires_in`, or swaps `access_token` for one the FHIR endpoint will refuse).
   */
  readonly rewriteResponse?: (body: Record<string, unknown>) => Record<string, unknown>
}

/** Runs the hooks of one token request; the rewrite is installed before the provider answers. */
export async function applyTokenEndpointHooks(
  hooks: TokenEndpointHooks | undefined,
  request: RecordedRequest,
  response: ServerResponse,
): Promise<void> {
  if (hooks === undefined) return
  const { rewriteResponse } = hooks
  if (rewriteResponse !== undefined) {
    rewriteResponseBody(response, (text) => {
      const body = parseJsonObject(text)
      return body === undefined ? text : JSON.stringify(rewriteResponse(body))
    })
  }
  await hooks.beforeRequest?.(request)
}
