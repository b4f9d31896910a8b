// `pnpm test:mutation` over the web layer's measured files: the cookies, the launch binding and
// the callback (docs/testing.md).
import { strykerConfig } from '../../scripts/mutation/stryker-config.mjs'

export default strykerConfig('web', ['src/cookies.ts', 'src/launch-binding.ts', 'src/callback.ts'])
