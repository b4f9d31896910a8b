import type { TokenResponse } from '@fhir-auth/core/essentials'
import { describeKind } from '@fhir-auth/core/internal/checks'
import { isTokenResponseValid } from '@fhir-auth/smart/token-response-check'
import type { TokenResponseCheckOptions } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'

const flows = ['app_launch', 'backend_services'] as const

/**
 * `isTokenResponseValid` for any protocol: never throws; an unknown `flow` is itself a warning.
 *
 * @internal
 */
export function checkTokenResponse(
  response: unknown,
  options: TokenResponseCheckOptions | undefined,
  context: ProtocolContext,
): response is TokenResponse {
  const logger = context.options.logger
  let flow: unknown
  try {
    flow = options?.flow ?? 'app_launch'
  } catch {
    flow = undefined
  }
  if (!(flows as readonly unknown[]).includes(flow)) {
    logger.warn(
      `SMART token response non-compliance: unknown flow ${typeof flow === 'string' ? JSON.stringify(flow) : describeKind(flow)}; checked as app_launch`,
    )
    isTokenResponseValid(response, { flow: 'app_launch', logger })
    return false
  }
  return isTokenResponseValid(response, { flow: flow as (typeof flows)[number], logger })
}
