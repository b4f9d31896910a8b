/** Keys, signers, a capturing logger and a secret scanner for the smart package tests. */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from 'node:crypto'
import type { JwsSigner, LogFields, Logger } from '@fhir-auth/core'

export interface TestKey {
  readonly signer: JwsSigner
  readonly publicKey: KeyObject
}

/**
 * A node:crypto signer. Keys are exported as PEM and re-imported: a freshly generated EC
 * KeyObject can deadlock Node 20 when later exported as a JWK.
 */
export function createTestKey(
  alg: 'RS384' | 'ES384' | 'RS256',
  kid: string | undefined = 'test-key-1',
): TestKey {
  const pair =
    alg === 'ES384'
      ? generateKeyPairSync('ec', { namedCurve: 'P-384' })
      : generateKeyPairSync('rsa', { modulusLength: 2048 })
  const privateKey = createPrivateKey(pair.privateKey.export({ format: 'pem', type: 'pkcs8' }))
  const hash = alg === 'RS256' ? 'sha256' : 'sha384'
  const signer: JwsSigner = {
    alg,
    kid,
    sign: async (input) =>
      new Uint8Array(
        sign(
          hash,
          input,
          alg === 'ES384' ? { key: privateKey, dsaEncoding: 'ieee-p1363' } : privateKey,
        ),
      ),
  }
  return { signer, publicKey: createPublicKey(privateKey) }
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

/** Runs `action`, which must reject, and returns what it rejected with. */
export async function rejectionOf(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action()
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}
