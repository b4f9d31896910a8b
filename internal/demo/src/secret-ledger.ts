/**
 * Every secret the demo handles, so the transcript can prove it never prints one.
 *
 * The transcript's renderers redact by field name and JWT shape; the ledger is the second
 * line of defence: each line is scrubbed of every known secret value before it is written,
 * with a marker of its own ({@link scrubMarker}) so a renderer that let a secret through
 * shows up in the test instead of hiding behind the scrub.
 */

/** What replaces a secret that reached a transcript line despite the renderers. */
export const scrubMarker = '[SCRUBBED]'

/** Environment variable naming a file to which the demo writes the secrets it used (tests). */
export const secretsFileVariable = 'FHIR_AUTH_DEMO_SECRETS_FILE'

/** One secret: a label that says what it is, and its value. */
export interface LedgerEntry {
  readonly label: string
  readonly value: string
}

/** Values shorter than this would match ordinary text by chance. */
const minimumSecretLength = 8
/** PEM body lines shorter than this (the last line of a key) prove nothing on their own. */
const minimumPemLineLength = 16

/** The set of secrets seen during one demo run. */
export class SecretLedger {
  readonly #entries = new Map<string, LedgerEntry>()

  /** Every registered secret, in registration order. */
  get entries(): readonly LedgerEntry[] {
    return [...this.#entries.values()]
  }

  /**
   * Registers a secret, and its URL-encoded form (how it travels in a query or form) when
   * that differs. Values too short to be recognised reliably are ignored.
   */
  add(label: string, value: string | undefined): void {
    if (value === undefined || value.length < minimumSecretLength) return
    this.#register(label, value)
    const encoded = encodeURIComponent(value)
    if (encoded !== value) this.#register(`${label} (URL-encoded)`, encoded)
  }

  /** Registers a PEM private key: the whole text and each base64 line of its body. */
  addPrivateKeyPem(label: string, pem: string): void {
    this.#register(label, pem)
    const bodyLines = pem
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => !line.startsWith('-----') && line.length >= minimumPemLineLength)
    bodyLines.forEach((line, index) => {
      this.#register(`${label} (line ${index + 1})`, line)
    })
  }

  /** `text` with every registered secret replaced by {@link scrubMarker}; longest first. */
  scrub(text: string): string {
    let result = text
    const values = [...this.#entries.keys()].sort((left, right) => right.length - left.length)
    for (const value of values) {
      if (result.includes(value)) result = result.split(value).join(scrubMarker)
    }
    return result
  }

  #register(label: string, value: string): void {
    if (!this.#entries.has(value)) this.#entries.set(value, { label, value })
  }
}
