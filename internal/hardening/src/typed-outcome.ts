import { inspect } from 'node:util'
import { FhirAuthError } from '@fhir-auth/core'
import { SecretScanner } from '@fhir-auth/test-utils'

/** How one hostile case ended, when it ended the way the library promises. */
export type CaseOutcome =
  | { readonly kind: 'success'; readonly value: unknown; readonly elapsedMs: number }
  | { readonly kind: 'typed-error'; readonly error: FhirAuthError; readonly elapsedMs: number }

/** What a hostile case must respect besides ending in success or a typed error. */
export interface OutcomeRules {
  /**
   * The longest the case may take: the library timeout the case configured plus a margin for a
   * busy machine. A case still running after this is reported as hanging.
   */
  readonly maxElapsedMs: number
  /**
   * Values the request carried (code, verifier, secret, assertion…): none may reach the error.
   * A record names each secret in reports by its key.
   */
  readonly secrets?: readonly string[] | Readonly<Record<string, string>> | undefined
  /** PEM private keys the case used: no line, body or JWK member may reach the error. */
  readonly privateKeyPems?: readonly string[] | undefined
}

/**
 * A broken promise of the library: a raw error, a hang or a leaked secret. Thrown by
 * {@link expectTypedOutcome} with a message that says which rule broke and how.
 */
export class HostileCaseViolation extends Error {
  override readonly name = 'HostileCaseViolation'
}

const hung = Symbol('hung')

/**
 * Runs one hostile case and checks the library's promise for it: the operation ends (within
 * `maxElapsedMs`) either in success or in a `FhirAuthError` — never a raw `TypeError`,
 * `SyntaxError`, `RangeError` or a non-error value — and the error carries none of the
 * request's secrets in its message, stack, `cause` chain, `JSON.stringify` or `util.inspect`
 * (with hidden members) output.
 *
 * A synchronous throw counts the same as a rejection: JavaScript callers see both.
 *
 * @throws HostileCaseViolation naming the broken rule, the error class and message (secrets are
 *   named by label, never printed).
 * @see ../../../../shared/DESIGN.md#6-cross-cutting-rules
 */
export async function expectTypedOutcome(
  operation: () => unknown,
  rules: OutcomeRules,
): Promise<CaseOutcome> {
  const started = performance.now()
  let watchdog: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<typeof hung>((resolve) => {
    watchdog = setTimeout(() => resolve(hung), rules.maxElapsedMs)
  })
  let settled: { ok: true; value: unknown } | { ok: false; error: unknown } | typeof hung
  try {
    settled = await Promise.race([
      Promise.resolve()
        .then(operation)
        .then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
      deadline,
    ])
  } finally {
    clearTimeout(watchdog)
  }
  const elapsedMs = performance.now() - started
  if (settled === hung) {
    throw new HostileCaseViolation(
      `the operation did not settle within ${rules.maxElapsedMs} ms (hang)`,
    )
  }
  if (settled.ok) return { kind: 'success', value: settled.value, elapsedMs }
  const { error } = settled
  if (!(error instanceof FhirAuthError)) {
    throw new HostileCaseViolation(`the operation failed with a raw ${describeThrown(error)}`)
  }
  const leaks = secretFindings(error, rules)
  if (leaks.length > 0) {
    throw new HostileCaseViolation(
      `${error.name} (${error.message.slice(0, 200)}) leaks ${leaks.join('; ')}`,
    )
  }
  return { kind: 'typed-error', error, elapsedMs }
}

/** Where the request's secrets appear in an error: `label in source` entries, empty when none. */
export function secretFindings(
  error: unknown,
  rules: Pick<OutcomeRules, 'secrets' | 'privateKeyPems'>,
): string[] {
  const scanner = new SecretScanner()
  let registered = 0
  const secrets = Array.isArray(rules.secrets)
    ? rules.secrets.map((value, index) => [`request secret ${index + 1}`, value] as const)
    : Object.entries(rules.secrets ?? {})
  for (const [label, secret] of secrets) {
    // The scanner refuses values too short to be telling; the cases generate long ones.
    if (secret.length >= 8) {
      scanner.addSecret(label, secret)
      registered++
    }
  }
  for (const [index, pem] of (rules.privateKeyPems ?? []).entries()) {
    scanner.addPrivateKeyPem(`private key ${index + 1}`, pem)
    registered++
  }
  if (registered === 0) return []
  scanner.addError('error', error)
  scanner.addText(
    'error (inspect, showHidden)',
    inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  )
  return scanner.findings().map((finding) => `${finding.secret} in ${finding.source}`)
}

/** A thrown value described for a report: class and message of errors, the type of the rest. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) {
    const frame = thrown.stack?.split('\n')[1]?.trim() ?? 'no stack'
    return `${thrown.name}: ${thrown.message.slice(0, 300)} (${frame})`
  }
  return `non-error value of type ${thrown === null ? 'null' : typeof thrown}`
}
