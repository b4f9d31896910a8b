#!/usr/bin/env node
/**
 * The `fhir-auth` binary: runs the command line and exits with its exit code (0 success,
 * 1 protocol or server failure, 2 usage or configuration error, 3 trust failure).
 */
import { processIo } from './io.js'
import { run } from './run.js'

// `fhir-auth … | head -1` closes the pipe early; that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
})

process.exitCode = await run(process.argv.slice(2), processIo())
