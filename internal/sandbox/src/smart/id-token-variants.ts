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
 * - `rotated-key`: signed by a new key that `/jwks` serves from now on (a valid token: a client
 *   with the old key set must refetch once and accept it).
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

/** The sandbox's extra keys: never published, and published after rotation. */
interface ExtraKeys {
  readonly unknown: KeyObject
  readonly rotated: KeyObject
  readonly rotatedPublicJwk: JsonWebKey
}

let extraKeys: ExtraKeys | undefined
function keys(): ExtraKeys {
  if (extraKeys === undefined) {
    // PEM first, then JWK: Node 20 can deadlock exporting a fresh key straight to JWK.
    const pair = () =>
      createPrivateKey(
        generateKeyPairSync('rsa', {
          modulusLength: 2048,
          privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        }).privateKey,
      )
    const rotated = pair()
    extraKeys = {
      unknown: pair(),
      rotated,
      rotatedPublicJwk: {
        ...createPublicKey(rotated).export({ format: 'jwk' }),
        kid: 'sandbox-rotated',
        alg: 'RS256',
        use: 'sig',
      },
    }
  }
  return extraKeys
}

/** What a rewrite needs: the provider's key and the client's secret for HS256. */
export interface IdTokenRewriteContext {
  readonly variant: IdTokenVariant
  readonly providerKey: JsonWebKey
  readonly clientSecret: (clientId: string) => string | undefined
}

/** The public keys `/jwks` adds once `rotated-key` has been used. */
export function rotatedPublicKeys(rotatedAlready: boolean): JsonWebKey[] {
  return rotatedAlready ? [keys().rotatedPublicJwk] : []
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
      return signRs256({ ...header, kid: 'sandbox-unknown' }, claims, keys().unknown)
    case 'rotated-key':
      return signRs256({ ...header, kid: 'sandbox-rotated' }, claims, keys().rotated)
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
