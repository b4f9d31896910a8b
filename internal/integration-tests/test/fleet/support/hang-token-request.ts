/**
 * How the fleet tests make a lock holder: the sandbox's token endpoint never answers the first
 * request that `matches` (the provider never sees it), so the worker that sent it holds the
 * lock until the test kills it. Unset the hooks (`setTokenEndpointHooks(undefined)`) afterwards.
 */
import type { RecordedRequest, TokenEndpointHooks } from '@fhir-auth/sandbox'
import { workerHeader } from './fleet-messages.js'

/** Resolves with the number of the worker whose token request hangs. */
export function hangFirstTokenRequest(
  sandbox: { setTokenEndpointHooks(hooks: TokenEndpointHooks | undefined): void },
  matches: (request: RecordedRequest) => boolean = () => true,
): Promise<number> {
  return new Promise<number>((holder) => {
    let holding = false
    sandbox.setTokenEndpointHooks({
      beforeRequest: (request) => {
        if (holding || !matches(request)) return
        holding = true
        holder(Number(request.headers[workerHeader]))
        return new Promise<void>(() => {})
      },
    })
  })
}
