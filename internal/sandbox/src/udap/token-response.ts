/** A successful token response body (RFC 6749 §5.1, OIDC Core §3.1.3.3). */
export interface TokenResponseBody {
  readonly access_token: string
  readonly token_type: 'Bearer'
  readonly expires_in: number
  readonly scope: string
  readonly refresh_token?: string
  readonly id_token?: string
}
