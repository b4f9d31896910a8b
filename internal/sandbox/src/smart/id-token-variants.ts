import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  sign,
} from 'node:crypto'
import type { ServerResponse } from 'node:http'

/**
 * Hostile ID tokens for the client's failure matrix (OIDC Core §3.1.3.7). With a variant set,
 * the sandbox rewrites the `id_token` of every token endpoint response: it changes the claims or
 * the header as named and signs again — with its own key, with a key it never publishes, with a
 * key it publishes only from then on (rotation), with the client's secret (HS256), or not at all.
 *
 * - `wrong-aud`, `wrong-iss`, `wrong-nonce`, `azp-missing` (two audiences, no azp), `azp-wrong`,
 *   `expired`, `iat-future`: claims changed, validly signed;
 * - `alg-none`: `{"alg":"none"}` and an empty signature;
 * - `hs256-client-secret`: HS256 keyed with the client's secret;
 * - `bad-signature`: the provider's signature with one bit flipped;
 * - `unknown-kid`: signed by a key the key set never contains;
 * - `rotated-key`: signed by a new key (a new one each time the variant is set) that `/jwks`
 *   serves from its first use (a valid token: a client with the old key set must refetch once
 *   and accept it).
 */
export type IdTokenVariant =
  | 'wrong-aud'
  | 'wrong-iss'
  | 'wrong-nonce'
  | 'azp-missing'
  | 'azp-wrong'
  | 'expired'
  | 'iat-future'
  | 'alg-none'
  | 'hs256-client-secret'
  | 'bad-signature'
  | 'unknown-kid'
  | 'rotated-key'

export const idTokenVariants: readonly IdTokenVariant[] = [
  'wrong-aud',
  'wrong-iss',
  'wrong-nonce',
  'azp-missing',
  'azp-wrong',
  'expired',
  'iat-future',
  'alg-none',
  'hs256-client-secret',
  'bad-signature',
  'unknown-kid',
  'rotated-key',
]

type Claims = Record<string, unknown>

const claimChanges: Partial<Record<IdTokenVariant, (claims: Claims, now: number) => Claims>> = {
  'wrong-aud': (claims) => ({ ...claims, aud: 'another-client' }),
  'wrong-iss': (claims) => ({ ...claims, iss: 'https://evil.example' }),
  'wrong-nonce': (claims) => ({ ...claims, nonce: 'not-the-nonce-that-was-sent' }),
  'azp-missing': ({ azp: _azp, ...claims }) => ({ ...claims, aud: [claims.aud, 'another-client'] }),
  'azp-wrong': (claims) => ({
    ...claims,
    aud: [claims.aud, 'another-client'],
    azp: 'another-client',
  }),
  expired: (claims, now) => ({ ...claims, iat: now - 7200, exp: now - 3600 }),
  'iat-future': (claims, now) => ({ ...claims, iat: now + 3600, exp: now + 7200 }),
}

/** A fresh RSA key; PEM first, then re-imported: Node 20 can deadlock exporting a new key as JWK. */
function rsaKey(): KeyObject {
  return createPrivateKey(
    generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey,
  )
}

let unknownKey: KeyObject | undefined

/**
 * A sandbox's key rotations: each `rotate()` makes a new key (`sandbox-rotated-1`, `-2`, …) that
 * signs `rotated-key` tokens from then on and that `/jwks` publishes from its first use, so a
 * client holding the earlier key set meets an unknown `kid` exactly once per rotation.
 */
export class KeyRotations {
  #current: { readonly kid: string; readonly key: KeyObject } | undefined
  readonly #published: JsonWebKey[] = []
  #count = 0

  rotate(): void {
    this.#count += 1
    this.#current = { kid: `sandbox-rotated-${this.#count}`, key: rsaKey() }
  }

  /** Signs with the current rotated key, publishing it. */
  sign(header: Claims, claims: Claims): string {
    if (this.#current === undefined) this.rotate()
    const current = this.#current as { readonly kid: string; readonly key: KeyObject }
    if (!this.#published.some((key) => key.kid === current.kid)) {
      this.#published.push({
        ...createPublicKey(current.key).export({ format: 'jwk' }),
        kid: current.kid,
        alg: 'RS256',
        use: 'sig',
      })
    }
    return signRs256({ ...header, kid: current.kid }, claims, current.key)
  }

  /** The rotated keys `/jwks` adds to the provider's. */
  published(): readonly JsonWebKey[] {
    return this.#published
  }
}

/** What a rewrite needs: the provider's key and the client's secret for HS256. */
export interface IdTokenRewriteContext {
  readonly variant: IdTokenVariant
  readonly providerKey: JsonWebKey
  readonly clientSecret: (clientId: string) => string | undefined
  readonly rotations: KeyRotations
}

/** Rewrites one ID token as the variant says. */
export function rewriteIdToken(idToken: string, context: IdTokenRewriteContext): string {
  const [encodedHeader, encodedClaims, encodedSignature] = idToken.split('.')
  const header = JSON.parse(Buffer.from(encodedHeader ?? '', 'base64url').toString()) as Claims
  const claims = JSON.parse(Buffer.from(encodedClaims ?? '', 'base64url').toString()) as Claims
  const now = Math.floor(Date.now() / 1000)
  const { variant } = context
  const change = claimChanges[variant]
  if (change !== undefined) {
    return signRs256(
      header,
      change(claims, now),
      createPrivateKey({ key: context.providerKey, format: 'jwk' }),
    )
  }
  switch (variant) {
    case 'alg-none':
      return `${encode({ alg: 'none' })}.${encode(claims)}.`
    case 'hs256-client-secret': {
      const secret = context.clientSecret(String(claims.aud)) ?? 'no-secret'
      const input = `${encode({ alg: 'HS256', kid: header.kid })}.${encode(claims)}`
      return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`
    }
    case 'bad-signature': {
      const signature = Buffer.from(encodedSignature ?? '', 'base64url')
      signature[0] = (signature[0] ?? 0) ^ 0x01
      return `${encodedHeader}.${encodedClaims}.${signature.toString('base64url')}`
    }
    case 'unknown-kid':
      unknownKey ??= rsaKey()
      return signRs256({ ...header, kid: 'sandbox-unknown' }, claims, unknownKey)
    case 'rotated-key':
      return context.rotations.sign(header, claims)
    default:
      return idToken
  }
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

function signRs256(header: Claims, claims: Claims, key: KeyObject): string {
  const input = `${encode({ ...header, alg: 'RS256' })}.${encode(claims)}`
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`
}

/**
 * Holds back what the provider writes to `response`, lets `rewrite` change the body, then sends
 * it with a corrected `content-length`. For the token endpoint only, and only while a variant is
 * set: every other response streams through untouched.
 */
export function rewriteResponseBody(
  response: ServerResponse,
  rewrite: (body: string) => string,
): void {
  const chunks: Buffer[] = []
  const write = response.write.bind(response)
  const end = response.end.bind(response)
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(
            chunk as string,
            typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
          ),
    )
  }
  response.write = ((chunk: unknown, encoding?: unknown) => {
    collect(chunk, encoding)
    return true
  }) as typeof response.write
  response.end = ((chunk?: unknown, encoding?: unknown) => {
    collect(chunk, encoding)
    response.write = write
    response.end = end
    const body = Buffer.from(rewrite(Buffer.concat(chunks).toString('utf8')))
    if (!response.headersSent) response.setHeader('content-length', String(body.length))
    return end(body)
  }) as typeof response.end
}

/** Rewrites the `id_token` member of a JSON token response; anything else passes unchanged. */
export function rewriteTokenResponse(body: string, context: IdTokenRewriteContext): string {
  try {
    const parsed = JSON.parse(body) as Claims
    if (typeof parsed.id_token !== 'string') return body
    return JSON.stringify({ ...parsed, id_token: rewriteIdToken(parsed.id_token, context) })
  } catch {
    return body
  }
}
