/**
 * `pnpm demo`: every flow of @fhir-auth/client against the embedded sandboxes, as a readable
 * transcript (`--help` for options). Exit status 0 on success, 1 on failure, 2 for a bad
 * command line.
 */
import { runDemo } from './run-demo.js'

/** How long to let output drain before leaving when something still holds the event loop. */
const exitGraceMilliseconds = 1000

const status = await runDemo({
  argv: process.argv.slice(2),
  environment: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutIsTerminal: process.stdout.isTTY === true,
  // A terminal's width; a pipe or a file keeps whole lines.
  columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
}).catch((error: unknown) => {
  // A bug in the demo itself: still one line, never a stack trace with values in it.
  const name = error instanceof Error ? error.name : 'Error'
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
  process.stderr.write(`fhir-auth demo crashed: ${name}: ${message}\n`)
  return 1
})
process.exitCode = status
// The sandboxes are closed by now. Work abandoned at the time limit may still hold the event
// loop; it must not keep the demo running.
setTimeout(() => process.exit(status), exitGraceMilliseconds).unref()
