import { openSslVersion } from '@fhir-auth/test-pki/revocation'

/** One differential run against OpenSSL, as a script runs it. */
export interface DifferentialCommand<Report> {
  /** The script's file name, for the usage line. */
  readonly script: string
  readonly defaultCount: number
  readonly defaultSeed: string
  run(options: {
    readonly seed: string
    readonly size: number
    readonly openSslVersion: string
    readonly concurrency: number
  }): Promise<Report>
  describe(report: Report): string
  /** One line per case that breaks a promise. */
  broken(report: Report): string[]
}

/**
 * Runs `command` with the script's arguments `[count] [seed] [concurrency]`: prints the summary
 * with the time taken, then every broken promise; the exit code is 1 when one is broken, 2 on a
 * bad argument or without `openssl`.
 */
export async function runDifferentialCommand<Report>(
  command: DifferentialCommand<Report>,
  argv: readonly string[],
): Promise<void> {
  const count = Number(argv[0] ?? command.defaultCount)
  const seed = argv[1] ?? command.defaultSeed
  const concurrency = Number(argv[2] ?? 4)
  if (
    !Number.isSafeInteger(count) ||
    count <= 0 ||
    !Number.isSafeInteger(concurrency) ||
    concurrency <= 0
  ) {
    console.error(
      `usage: ${command.script} [count (default ${command.defaultCount})] [seed] [concurrency (default 4)]`,
    )
    process.exitCode = 2
    return
  }
  const version = await openSslVersion()
  if (version === undefined) {
    console.error('openssl is not installed')
    process.exitCode = 2
    return
  }
  const started = performance.now()
  const report = await command.run({ seed, size: count, openSslVersion: version, concurrency })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`${command.describe(report)} (${seconds} s)`)
  const broken = command.broken(report)
  for (const line of broken) console.log(line)
  console.log(broken.length === 0 ? 'no broken promise' : `${broken.length} broken promises`)
  process.exitCode = broken.length === 0 ? 0 : 1
}
