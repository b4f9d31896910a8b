import { importPKCS8, SignJWT } from 'jose'

/** What both the baseline and the library need to request a backend services token. */
export interface BackendTokenTarget {
  readonly tokenUrl: string
  readonly clientId: string
  readonly privateKeyPem: string
  readonly kid: string
  readonly scope: string
}

const clientAssertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'

/**
 * The hand-written baseline of a SMART backend services token request: what an app would write
 * with jose and `fetch` and no client library. Same assertion as the library's (ES384, `typ`,
 * `kid`, `iss` = `sub` = client id, `aud` = token URL, `iat`, `exp` + 300 s, 256-bit `jti`),
 * same form, same endpoint, the response parsed as JSON. The key is imported once, as the
 * library caches its signer.
 */
export async function createJoseBackendTokenRequest(
  target: BackendTokenTarget,
): Promise<() => Promise<Record<string, unknown>>> {
  const key = await importPKCS8(target.privateKeyPem, 'ES384')
  return async () => {
    const issuedAt = Math.floor(Date.now() / 1000)
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES384', typ: 'JWT', kid: target.kid })
      .setIssuer(target.clientId)
      .setSubject(target.clientId)
      .setAudience(target.tokenUrl)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 300)
      .setJti(Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url'))
      .sign(key)
    const response = await fetch(target.tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: target.scope,
        client_assertion_type: clientAssertionType,
        client_assertion: assertion,
      }),
    })
    const body = (await response.json()) as Record<string, unknown>
    if (!response.ok || typeof body.access_token !== 'string') {
      throw new Error(`the baseline token request failed with status ${response.status}`)
    }
    return body
  }
}
