/**
 * What the transport error codes a person meets most often mean, in words: the codes Node's
 * `fetch` (undici) and `node:http` report on the error or its `cause`. Node builds only (the
 * `#network-code-meanings` import of package.json); elsewhere the code itself is shown.
 *
 * @internal
 */
export const networkCodeMeanings: Readonly<Record<string, string>> = {
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved (DNS did not answer)',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  CERT_HAS_EXPIRED: 'the server’s TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server’s TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the server’s TLS certificate chain is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server’s TLS certificate chain is not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server’s TLS certificate does not name this host',
}
