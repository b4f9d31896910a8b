import { type OAuthRejection, rejection } from './oauth-rejection.js'
import type { TokenRequestRule } from './records.js'

/** A token-endpoint error answer with the rule that caused it (for the AnT record). */
export interface TokenRejection extends OAuthRejection {
  readonly rule: TokenRequestRule
}

/** Builds a {@link TokenRejection} (status 400). */
export function refuse(rule: TokenRequestRule, error: string, description: string): TokenRejection {
  return { ...rejection(error, description), rule }
}

/** Whether an answer is a rejection. */
export function isRejection(answer: object): answer is TokenRejection {
  return 'error' in answer
}
