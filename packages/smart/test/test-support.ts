/** Keys, signers, a capturing logger and a secret scanner for the smart package tests. */
import type { JwsSigner, LogFields, Logger } from '@fhir-auth/core'

export interface TestKey {
  readonly signer: JwsSigner
  readonly publicKey: CryptoKey
}

/**
 * A WebCrypto signer with a fresh key (RSA 2048 or P-384), so the tests that sign run in Node,
 * edge runtimes and browsers alike. ECDSA signatures come out as JOSE r‖s, as JWS wants them.
 */
export async function createTestKey(
  alg: 'RS384' | 'ES384' | 'RS256',
  kid: string | undefined = 'test-key-1',
): Promise<TestKey> {
  const hash = alg === 'RS256' ? 'SHA-256' : 'SHA-384'
  const algorithm =
    alg === 'ES384'
      ? { name: 'ECDSA', namedCurve: 'P-384' }
      : {
          name: 'RSASSA-PKCS1-v1_5',
          hash,
          modulusLength: 2048,
          publicExponent: Uint8Array.of(1, 0, 1),
        }
  const pair = (await crypto.subtle.generateKey(algorithm, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const parameters = alg === 'ES384' ? { name: 'ECDSA', hash } : { name: 'RSASSA-PKCS1-v1_5' }
  const signer: JwsSigner = {
    alg,
    kid,
    sign: async (input) =>
      new Uint8Array(await crypto.subtle.sign(parameters, pair.privateKey, new Uint8Array(input))),
  }
  return { signer, publicKey: pair.publicKey }
}

export interface LogLine {
  readonly level: 'info' | 'warn' | 'error' | 'debug'
  readonly message: string
  readonly fields: LogFields | undefined
}

export interface CapturingLogger extends Logger {
  readonly lines: LogLine[]
  warnings(): string[]
}

export function captureLogger(): CapturingLogger {
  const lines: LogLine[] = []
  const write = (level: LogLine['level']) => (message: string, fields?: LogFields) => {
    lines.push({ level, message, fields })
  }
  return {
    lines,
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    debug: write('debug'),
    warnings: () => lines.filter((line) => line.level === 'warn').map((line) => line.message),
  }
}

/**
 * Every text an error exposes: message, name, stack, string fields (except `errorDescription`, which
 * keeps the server's words by design), and the same for each `cause`, recursively.
 */
export function errorTexts(error: unknown, depth = 0): string[] {
  if (depth > 10 || error === undefined || error === null) return []
  if (typeof error !== 'object') return [String(error)]
  const texts: string[] = []
  if (error instanceof Error)
    texts.push(error.message, error.name, String(error), error.stack ?? '')
  for (const [name, value] of Object.entries(error)) {
    if (name === 'errorDescription') continue
    if (typeof value === 'string') texts.push(value)
    else if (name !== 'cause' && value !== undefined) texts.push(JSON.stringify(value) ?? '')
  }
  return [...texts, ...errorTexts((error as { cause?: unknown }).cause, depth + 1)]
}

/** The secret values found in any of `texts`. */
export function leakedSecrets(texts: readonly string[], secrets: readonly string[]): string[] {
  return secrets.filter((secret) => texts.some((text) => text.includes(secret)))
}

export { rejectionOf } from '@fhir-auth/test-utils/failure'
