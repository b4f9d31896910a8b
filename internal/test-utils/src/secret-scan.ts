import { createPrivateKey } from 'node:crypto'
import { inspect } from 'node:util'
import { ConfigurationError } from '@fhir-auth/core'
import { safeJson } from './capturing-logger.js'

/** A secret seen where it must not be. Names the secret and the place, never the value. */
export interface SecretFinding {
  /** The label the secret was registered with, e.g. `client secret`. */
  readonly secret: string
  /** Where it was seen, e.g. `log: info line 3` or `error wrong secret › cause 1 (inspect)`. */
  readonly source: string
}

interface RegisteredSecret {
  readonly label: string
  readonly value: string
}

interface RegisteredPattern {
  readonly label: string
  readonly pattern: RegExp
}

interface ScannedText {
  readonly source: string
  readonly text: string
}

/** A compact JWS or JWT (a JOSE header always starts `{"`, base64url `eyJ`): tokens and assertions. */
export const compactJwsPattern = /eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/

/** The armour of a PEM private key. */
export const pemPrivateKeyPattern = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/

/** Shorter values would match by chance (a `kid`, a word of a message) and prove nothing. */
const minimumSecretLength = 8
/** PEM lines shorter than this (the last line of a body) are too short to be telling. */
const minimumPemFragmentLength = 16
/** How deep a `cause` chain is followed; real chains are two or three links long. */
const maximumCauseDepth = 16
/** Private members of a JWK (RFC 7518 §6.2.2, §6.3.2). */
const privateJwkMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const

/**
 * Collects the secrets used in a test run and every text the library produced in it (log
 * lines, error messages and `cause` chains, `JSON.stringify` and `util.inspect` output of
 * public objects), then reports each secret found in any text.
 *
 * The rule it checks: no secret (client secret, private key, token, code, verifier,
 * assertion, initial access token) appears in log output, error messages, `cause`,
 * `toJSON()` or `util.inspect` output.
 *
 * @example
 * ```ts
 * const scan = new SecretScanner()
 * scan.addSecret('client secret', secret).addPrivateKeyPem('RS384 key', keys.privateKeyPem)
 * scan.addError('wrong secret', caught).addValue('client', client).addLines('log', logger.renderedLines())
 * expect(scan.findings()).toEqual([])
 * ```
 * @see ../../../../shared/DESIGN.md#6-cross-cutting-rules
 */
export class SecretScanner {
  readonly #secrets: RegisteredSecret[] = []
  readonly #patterns: RegisteredPattern[] = []
  readonly #texts: ScannedText[] = []

  /** How many secret values (including derived forms) are registered. */
  get secretCount(): number {
    return this.#secrets.length
  }

  /** How many texts have been collected. */
  get textCount(): number {
    return this.#texts.length
  }

  /**
   * Registers a secret value and its URL-encoded form (how it travels in a query or form).
   *
   * @throws ConfigurationError `secret` when the value is shorter than 8 characters: such a
   *   value would match ordinary text by chance.
   */
  addSecret(label: string, value: string): this {
    if (typeof value !== 'string' || value.length < minimumSecretLength) {
      throw new ConfigurationError({
        invalidAttribute: 'secret',
        invalidValue: `a value of ${typeof value === 'string' ? `${value.length} characters` : typeof value}`,
        message: `secret ${JSON.stringify(label)} must be a string of at least ${minimumSecretLength} characters to be scanned for`,
      })
    }
    this.#register(label, value)
    const encoded = encodeURIComponent(value)
    if (encoded !== value) this.#register(`${label} (URL-encoded)`, encoded)
    return this
  }

  /**
   * Registers a PEM private key: each line of its base64 body, the whole body (standard and
   * base64url), and the private members of its JWK form, so a key leaked in any of the shapes
   * a library handles is found.
   *
   * @throws ConfigurationError `secret` when the text is not a PEM private key Node can read.
   */
  addPrivateKeyPem(label: string, pem: string): this {
    const body = pemBody(pem)
    if (body === undefined) {
      throw new ConfigurationError({
        invalidAttribute: 'secret',
        message: `secret ${JSON.stringify(label)} is not a PEM private key`,
      })
    }
    body.lines.forEach((line, index) => {
      if (line.length >= minimumPemFragmentLength)
        this.#register(`${label} (PEM line ${index + 1})`, line)
    })
    const joined = body.lines.join('')
    this.#register(`${label} (PEM body)`, joined)
    this.#register(`${label} (PEM body, base64url)`, base64ToBase64Url(joined))
    // Imported from PEM, never freshly generated: the Node 20 EC-JWK export deadlock does not apply.
    const jwk = createPrivateKey(pem).export({ format: 'jwk' }) as Record<string, unknown>
    for (const member of privateJwkMembers) {
      const value = jwk[member]
      if (typeof value === 'string' && value.length >= minimumSecretLength) {
        this.#register(`${label} (JWK ${member})`, value)
      }
    }
    return this
  }

  /**
   * Registers a shape no collected text may contain at all, for secrets whose values the test
   * never sees (an assertion sent to a server that never answered): e.g. {@link compactJwsPattern}.
   */
  addPattern(label: string, pattern: RegExp): this {
    // A global or sticky expression keeps state between `test` calls; a fresh copy does not.
    this.#patterns.push({
      label,
      pattern: new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')),
    })
    return this
  }

  /** Collects one text as it is. */
  addText(source: string, text: string): this {
    this.#texts.push({ source, text })
    return this
  }

  /** Collects several texts, e.g. a capturing logger's rendered lines. */
  addLines(source: string, lines: readonly string[]): this {
    for (const [index, line] of lines.entries()) this.addText(`${source} line ${index + 1}`, line)
    return this
  }

  /**
   * Collects a value the way a user, a debugger or a logger that digs deep would print it:
   * `JSON.stringify`, `util.inspect` (and again with hidden members: non-enumerable properties,
   * symbols), `String`.
   */
  addValue(source: string, value: unknown): this {
    this.addText(`${source} (JSON)`, safeJson(value))
    this.addText(`${source} (inspect)`, inspect(value, { depth: Number.POSITIVE_INFINITY }))
    this.addText(
      `${source} (inspect, showHidden)`,
      inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    )
    this.addText(`${source} (String)`, safeString(value))
    return this
  }

  /**
   * Collects an error and every link of its `cause` chain (and the members of an
   * `AggregateError`): message, stack, `JSON.stringify` and `util.inspect` of each.
   */
  addError(source: string, error: unknown): this {
    const seen = new Set<unknown>()
    const visit = (link: unknown, path: string, depth: number): void => {
      if (depth > maximumCauseDepth || seen.has(link)) return
      seen.add(link)
      this.addValue(path, link)
      if (link instanceof Error) {
        this.addText(`${path} (message)`, link.message)
        if (link.stack !== undefined) this.addText(`${path} (stack)`, link.stack)
        if (link.cause !== undefined) visit(link.cause, `${path} › cause`, depth + 1)
        if (link instanceof AggregateError) {
          for (const [index, member] of link.errors.entries()) {
            visit(member, `${path} › errors[${index}]`, depth + 1)
          }
        }
      }
    }
    visit(error, source, 0)
    return this
  }

  /**
   * Every (secret, text) pair where the secret occurs in the text, and every (pattern, text)
   * pair where the pattern matches; empty when nothing leaked.
   */
  findings(): SecretFinding[] {
    const findings: SecretFinding[] = []
    for (const text of this.#texts) {
      for (const secret of this.#secrets) {
        if (text.text.includes(secret.value))
          findings.push({ secret: secret.label, source: text.source })
      }
      for (const { label, pattern } of this.#patterns) {
        if (pattern.test(text.text)) findings.push({ secret: label, source: text.source })
      }
    }
    return findings
  }

  #register(label: string, value: string): void {
    if (!this.#secrets.some((secret) => secret.value === value))
      this.#secrets.push({ label, value })
  }
}

function pemBody(pem: string): { readonly lines: readonly string[] } | undefined {
  if (typeof pem !== 'string') return undefined
  const match = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----([\s\S]*?)-----END \1-----/.exec(pem)
  const content = match?.[2]
  if (content === undefined) return undefined
  const lines = content
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.includes(':'))
  return lines.length === 0 ? undefined : { lines }
}

function base64ToBase64Url(text: string): string {
  return text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function safeString(value: unknown): string {
  try {
    return String(value)
  } catch (error) {
    return `[not convertible to a string: ${error instanceof Error ? error.name : typeof error}]`
  }
}
