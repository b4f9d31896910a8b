import { createHash, randomBytes } from 'node:crypto'

/** A PKCE verifier and its S256 challenge (RFC 7636 §4.1–4.2). */
export interface PkcePair {
  readonly verifier: string
  readonly challenge: string
}

export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** A 256-bit `state` value. */
export function createState(): string {
  return randomBytes(32).toString('base64url')
}
