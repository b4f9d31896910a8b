/** The sections of a run, in the order they run and print. */
export const sectionNames = [
  'bundle',
  'udap',
  'crypto',
  'token',
  'session',
  'scopes',
  'fleet',
  'web',
  'reuse',
  'import',
  'footprint',
] as const

/** A section's name. */
export type SectionName = (typeof sectionNames)[number]

/** What `pnpm bench [flags]` asked for. */
export interface BenchArguments {
  /** `--json`: print the report as JSON on stdout (the table goes to stderr). */
  readonly json: boolean
  /** `--only=bundle,token`: run just these sections. Default: all. */
  readonly sections: readonly SectionName[]
  /** `--no-build`: use the packages' `dist` as it is instead of running the (cached) build. */
  readonly build: boolean
  /** `--help`. */
  readonly help: boolean
}

/** The text `--help` prints. */
export const usage = `Usage: pnpm bench [--json] [--only=${sectionNames.join(',')}] [--no-build]

  --json       print the report as JSON on stdout; the table goes to stderr
  --only=…     run only the named sections (comma-separated)
  --no-build   do not run \`turbo run build\` for @fhir-auth/client and its dependencies first
               (the import and footprint sections use the built dist)

Exit status: 0 unless a hard budget is broken (a SMART browser app over its byte limit, or
loading pkijs, asn1js, node-forge or UDAP code) or a measurement crashed.`

/**
 * Reads the command-line flags.
 *
 * @throws Error naming the flag when a flag or a section name is unknown.
 */
export function parseBenchArguments(argv: readonly string[]): BenchArguments {
  let json = false
  let build = true
  let help = false
  let sections: readonly SectionName[] = sectionNames
  for (const argument of argv) {
    if (argument === '--') continue
    if (argument === '--json') json = true
    else if (argument === '--no-build') build = false
    else if (argument === '--help' || argument === '-h') help = true
    else if (argument.startsWith('--only='))
      sections = parseSections(argument.slice('--only='.length))
    else throw new Error(`unknown argument ${JSON.stringify(argument)}\n\n${usage}`)
  }
  return { json, sections, build, help }
}

function parseSections(list: string): readonly SectionName[] {
  const requested = list.split(',').filter((name) => name !== '')
  for (const name of requested) {
    if (!(sectionNames as readonly string[]).includes(name)) {
      throw new Error(
        `unknown section ${JSON.stringify(name)}; sections: ${sectionNames.join(', ')}`,
      )
    }
  }
  // Keep the canonical order: later sections assume nothing about earlier ones, but the
  // table reads best in one fixed order.
  return sectionNames.filter((name) => requested.includes(name))
}
