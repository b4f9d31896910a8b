// Apart from the fetch: the path policy names this error without loading the request code.
/**
 * A fetch of a revocation document that was answered, but not with `200`. Internal: the path
 * policy turns it into part of a `revocation-unavailable` message.
 */
export class RevocationDocumentStatusError extends Error {
  override readonly name = 'RevocationDocumentStatusError'
  readonly status: number
  constructor(status: number) {
    super(`answered HTTP ${status}`)
    this.status = status
  }
}
