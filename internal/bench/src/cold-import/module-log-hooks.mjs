// Module customization hooks that write every resolved module URL to a file, one per line.
// Used only for the untimed run that lists what an import loads (e.g. that node-forge is not
// loaded); the hooks themselves would distort the timed runs.
import { appendFileSync } from 'node:fs'

let logFile

export function initialize(data) {
  logFile = data.logFile
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context)
  appendFileSync(logFile, `${resolved.url}\n`)
  return resolved
}
