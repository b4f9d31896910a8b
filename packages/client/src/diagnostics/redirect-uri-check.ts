import { isLoopbackHostname } from '@fhir-auth/core/essentials'
import type { DiagnosticCheck } from './diagnostic-report.js'

/**
 * `redirect-uri`: absolute, HTTPS or loopback `http:`, and without a fragment. A client that
 * signs assertions may have none (backend services); any other client needs one to launch.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2 RFC 6749 §3.1.2 (no fragment)
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7.3 RFC 8252 §7.3 (loopback redirects)
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-2.1 RFC 9700 §2.1
 */
export function checkRedirectUri(
  redirectUri: string | undefined,
  needsOne: boolean,
): DiagnosticCheck {
  if (redirectUri === undefined) {
    return needsOne
      ? {
          id: 'redirect-uri',
          status: 'fail',
          message: 'no redirectUri is configured, and launches need one',
          hint: 'set redirectUri to the callback URL registered with the server',
        }
      : {
          id: 'redirect-uri',
          status: 'pass',
          message: 'none configured (backend services need none)',
        }
  }
  const hint =
    'register and configure an https: callback URL without #fragment (http: only on a loopback host)'
  let url: URL
  try {
    url = new URL(redirectUri)
  } catch {
    return {
      id: 'redirect-uri',
      status: 'fail',
      message: 'redirectUri is not an absolute URL',
      hint,
    }
  }
  if (url.hash !== '' || redirectUri.includes('#')) {
    return { id: 'redirect-uri', status: 'fail', message: 'redirectUri has a fragment', hint }
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHostname(url.hostname))) {
    return { id: 'redirect-uri', status: 'pass', message: `${url.origin}${url.pathname} is usable` }
  }
  return {
    id: 'redirect-uri',
    status: 'fail',
    message: `redirectUri uses ${url.protocol} on ${url.protocol === 'http:' ? 'a host that is not loopback' : 'a scheme servers refuse'}`,
    hint,
  }
}
