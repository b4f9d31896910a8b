import type { ServerResponse } from 'node:http'
import { sendJson } from '../http/responses.js'

/**
 * An RFC 6749 §5.2 / RFC 7591 §3.2.2 error answer. `description` names the rule that failed and
 * never repeats a token, assertion or software statement.
 */
export interface OAuthRejection {
  readonly status: number
  readonly error: string
  readonly description: string
}

/** Builds an {@link OAuthRejection} (status 400 unless given). */
export function rejection(error: string, description: string, status = 400): OAuthRejection {
  return { status, error, description }
}

/** Sends `rejection` as `{ error, error_description }` JSON, uncached. */
export function sendOAuthError(response: ServerResponse, answer: OAuthRejection): void {
  sendJson(
    response,
    answer.status,
    { error: answer.error, error_description: answer.description },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  )
}
