/** What the library writes in place of a secret. */
export const redacted = '[REDACTED]'
