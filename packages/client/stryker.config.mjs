// `pnpm test:mutation` over the client's measured files (docs/testing.md).
import { strykerConfig } from '../../scripts/mutation/stryker-config.mjs'

export default strykerConfig('client', [
  'src/launch/authorization-callback.ts',
  'src/launch/launch-record.ts',
  'src/smart/issuer-binding.ts',
  'src/tokens/bearer-fetch.ts',
  'src/tokens/shared-token-cache.ts',
])
