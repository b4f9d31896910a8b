// `pnpm test:mutation` over udap's measured files (docs/testing.md).
import { strykerConfig } from '../../scripts/mutation/stryker-config.mjs'

export default strykerConfig('udap', ['src/signed-metadata.ts', 'src/registration-metadata.ts'])
