import type { TokenSet } from '@fhir-auth/core/essentials'
import { ConfigurationError } from '@fhir-auth/core/internal/up-front'

/** Called after every refresh with the new tokens, and awaited: where an app persists them. */
export type TokensListener = (tokens: TokenSet) => void | Promise<void>

/**
 * An `onTokens` listener when given: `undefined`/`null` is none.
 *
 * @throws ConfigurationError on `onTokens` for anything but a function.
 * @internal
 */
export function optionalListener(value: unknown): TokensListener | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'function') return value as TokensListener
  throw new ConfigurationError({
    invalidAttribute: 'onTokens',
    invalidValue: typeof value,
    message: 'onTokens must be a function',
  })
}
