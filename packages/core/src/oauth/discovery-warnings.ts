import type { Logger } from '../logging/logger.js'

/**
 * The warning for a discovery document that parsed as JSON but came with another content type
 * (`text/plain`, none): tolerated, since the body decides, and named so that the server's
 * operators can be told. Only a plain `type/subtype` is quoted (the header is the server's text).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3.2 RFC 8414 §3.2 (`application/json`)
 * @internal
 */
export function warnOnMislabelledJson(mediaType: string, where: string, logger: Logger): void {
  const served =
    mediaType === ''
      ? 'served with no content type'
      : `served as ${/^[\w.+-]+\/[\w.+-]+$/.test(mediaType) ? mediaType.toLowerCase() : 'an unreadable content type'}`
  logger.warn(`${where} ${served}, not application/json; read as JSON`, {
    event: 'discovery.content_type',
  })
}
