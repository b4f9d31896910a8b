// `pnpm test:mutation` over core's measured files (docs/testing.md).
import { strykerConfig } from '../../scripts/mutation/stryker-config.mjs'

export default strykerConfig('core', [
  'src/http/url-policy.ts',
  'src/http/uri-host.ts',
  'src/http/request.ts',
  'src/x509/chain.ts',
  'src/logging/redact.ts',
  'src/oidc/verify-id-token.ts',
  'src/x509/revocation-online/ocsp-request.ts',
  'src/x509/revocation-online/ocsp-response.ts',
  'src/x509/revocation-online/ocsp-status.ts',
  'src/x509/revocation-online/online-revocation.ts',
  'src/x509/revocation-online/online-status.ts',
  'src/x509/revocation-online/distribution-point-uris.ts',
  'src/x509/revocation-online/certificate-access.ts',
  'src/x509/revocation-online/ca-issuers.ts',
  'src/x509/revocation-online/missing-issuers.ts',
  'src/x509/revocation-online/ocsp-answers.ts',
  'src/x509/revocation-online/ca-issuers-cache.ts',
  'src/x509/revocation-online/revocation-cache-access.ts',
  'src/x509/revocation-online/time-limited-store.ts',
])
