/**
 * Independent verification of the JWTs the library signs, with jose: the key comes from the
 * JWT's own `x5c[0]`, as a UDAP server would take it.
 */
import { decodeProtectedHeader, importX509, type JWTPayload, jwtVerify } from 'jose'

export function certificatePem(base64Der: string): string {
  const lines = base64Der.match(/.{1,64}/g) ?? []
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----`
}

export interface VerifiedTestJwt {
  readonly header: Record<string, unknown>
  readonly claims: JWTPayload & Record<string, unknown>
}

/** Verifies a JWT with the key of its `x5c[0]` and returns header and claims. */
export async function verifyWithX5c(jwt: string, currentDate?: Date): Promise<VerifiedTestJwt> {
  const header = decodeProtectedHeader(jwt) as Record<string, unknown>
  const x5c = header.x5c
  if (!Array.isArray(x5c) || typeof x5c[0] !== 'string') throw new Error('no x5c')
  const key = await importX509(certificatePem(x5c[0]), String(header.alg))
  const { payload } = await jwtVerify(jwt, key, {
    algorithms: [String(header.alg)],
    ...(currentDate === undefined ? {} : { currentDate }),
  })
  return { header, claims: payload as JWTPayload & Record<string, unknown> }
}
