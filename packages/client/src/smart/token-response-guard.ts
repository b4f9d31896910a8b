import type { TokenResponse } from '@fhir-auth/core/essentials'
import { describeKind, readOptions } from '@fhir-auth/core/internal/checks'
import { isTokenResponseValid } from '@fhir-auth/smart/token-response-check'
import { operationOptionNames, type TokenResponseCheckOptions } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'

const flows = ['app_launch', 'backend_services'] as const

/**
 * `isTokenResponseValid` for any protocol: never throws. An unknown `flow`, an unknown option
 * name (a `flw` typo would silently check another flow) and options that cannot be read are
 * each a warning, and the response is still checked (as `app_launch`) but never valid.
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
  let problem: string | undefined
  try {
    flow =
      readOptions(options, 'isTokenResponseValid', {
        known: operationOptionNames.isTokenResponseValid,
        noun: 'option',
      }).flow ?? 'app_launch'
    if (!(flows as readonly unknown[]).includes(flow)) {
      problem = `unknown flow ${typeof flow === 'string' ? JSON.stringify(flow) : describeKind(flow)}`
    }
  } catch (error) {
    // A ConfigurationError, whose message names the option and never quotes a value.
    problem = (error as Error).message
  }
  if (problem !== undefined) {
    logger.warn(`SMART token response non-compliance: ${problem}; checked as app_launch`)
    isTokenResponseValid(response, { flow: 'app_launch', logger })
    return false
  }
  return isTokenResponseValid(response, { flow: flow as (typeof flows)[number], logger })
}
