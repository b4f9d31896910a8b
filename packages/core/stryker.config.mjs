// `pnpm test:mutation` over core's measured files (docs/testing.md).
import { strykerConfig } from '../../scripts/mutation/stryker-config.mjs'

export default strykerConfig('core', [
  'src/http/url-policy.ts',
  'src/http/uri-host.ts',
  'src/http/request.ts',
  'src/x509/chain.ts',
  'src/logging/redact.ts',
  'src/oidc/verify-id-token.ts',
])
