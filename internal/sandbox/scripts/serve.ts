/**
 * `pnpm sandbox` (from the repository root; `npx -y pnpm@10 sandbox` without a global pnpm):
 * starts the local SMART and UDAP sandboxes for trying the CLI and the examples by hand, prints
 * their base URLs, the trust anchor and CRL files, ready clients (ids, secret, keys), an EHR
 * launch URL for examples/node-web-app and commands to try, and stops on Ctrl-C.
 *
 *   pnpm sandbox                the summary for a person
 *   pnpm sandbox --json         one JSON line (LocalSandboxesDescription), for scripts
 *   pnpm sandbox --dir d        write the files to d (kept on exit) instead of a temporary directory
 *   pnpm sandbox --udap-tiered  also the Tiered OAuth data holder and identity provider (as the demo)
 */
import { localSandboxesSummary, startLocalSandboxes } from '../src/index.js'

const args = process.argv.slice(2)
const json = args.includes('--json')
const udapTiered = args.includes('--udap-tiered')
const directoryIndex = args.indexOf('--dir')
const directory = directoryIndex < 0 ? undefined : args[directoryIndex + 1]
const known = new Set([
  '--json',
  '--udap-tiered',
  '--dir',
  ...(directory === undefined ? [] : [directory]),
])
const unknown = args.find((arg) => !known.has(arg))
if (unknown !== undefined || (directoryIndex >= 0 && directory === undefined)) {
  process.stderr.write(`usage: pnpm sandbox [--json] [--dir <directory>] [--udap-tiered]\n`)
  process.exit(2)
}

const sandboxes = await startLocalSandboxes({ directory, udapTiered })
process.stdout.write(
  json
    ? `${JSON.stringify(sandboxes.description)}\n`
    : localSandboxesSummary(sandboxes.description),
)

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await sandboxes.close()
  if (!json) process.stderr.write('sandboxes stopped\n')
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
