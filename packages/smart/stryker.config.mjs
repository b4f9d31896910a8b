// `pnpm test:mutation` over smart's measured files (docs/testing.md).
import { strykerConfig } from '../../scripts/mutation/stryker-config.mjs'

export default strykerConfig('smart', [
  'src/client-assertion.ts',
  'src/authorization-request.ts',
  'src/token-response-check.ts',
])
