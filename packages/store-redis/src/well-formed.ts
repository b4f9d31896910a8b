import { ConfigurationError } from '@fhir-auth/core'

/** A surrogate code unit outside a pair: with the `u` flag, a pair is one code point and is not matched. */
const loneSurrogate = /[\uD800-\uDFFF]/u

/**
 * Refuses a string Redis cannot hold as it is: Redis keeps bytes, a JavaScript string goes to it
 * as UTF-8, and a lone surrogate has no UTF-8 form (it is written as U+FFFD). Two different keys
 * could then name one entry, and a value would come back changed. The library's own keys are
 * hashes and its values JSON, so only an application calling the store directly meets this.
 * A value is never described beyond this (it may be a token).
 *
 * @throws ConfigurationError on `attribute`.
 * @see https://infra.spec.whatwg.org/#scalar-value-string scalar value strings
 * @internal
 */
export function requireWellFormed(text: string, attribute: 'key' | 'value' | 'prefix'): void {
  if (!loneSurrogate.test(text)) return
  throw new ConfigurationError({
    invalidAttribute: attribute,
    message: `a Redis store ${attribute} must be well-formed Unicode: it holds a lone surrogate, which has no UTF-8 form`,
  })
}
