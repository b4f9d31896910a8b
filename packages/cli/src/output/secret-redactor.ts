import { redacted, redactSecrets } from '@fhir-auth/core'

/** Shorter values would match ordinary words by chance; core's `redactSecrets` uses the same floor. */
const minimumSecretLength = 4
/** A compact JWS/JWT anywhere in a text (a JOSE header always starts with `eyJ`, i.e. `{"`). */
const jwtPattern = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g
/** A PEM private key block, whatever its label (PKCS#8, PKCS#1, SEC1, encrypted). */
const privateKeyPemPattern =
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g

/**
 * The last line of defence for stderr: every secret the CLI has read or received in this run
 * (passwords, client secrets, initial access tokens, key material, codes, verifiers, tokens) is
 * registered here, and every text written to stderr passes through {@link redact}.
 *
 * The library already keeps secrets out of its messages and logs; this guards against a
 * server echoing one back in an `error_description`, and against our own mistakes.
 */
export class SecretRedactor {
  readonly #secrets = new Set<string>()

  /** Registers a secret value; values shorter than 4 characters are ignored (see above). */
  add(value: string | undefined): void {
    if (value !== undefined && value.length >= minimumSecretLength) this.#secrets.add(value)
  }

  /** Registers each line of a PEM private key's base64 body, so a fragment cannot leak either. */
  addPrivateKeyPem(pem: string): void {
    for (const line of pem.split(/\r?\n/)) {
      const trimmed = line.trim()
      if (trimmed !== '' && !trimmed.startsWith('-----') && trimmed.length >= 16) this.add(trimmed)
    }
  }

  /** The text with every registered secret, compact JWT and PEM private key replaced by `[REDACTED]`. */
  redact(text: string): string {
    const result = text.replace(privateKeyPemPattern, redacted).replace(jwtPattern, redacted)
    // Longest first, so a secret containing another one is replaced whole.
    const secrets = [...this.#secrets].sort((left, right) => right.length - left.length)
    return redactSecrets(result, secrets)
  }
}
