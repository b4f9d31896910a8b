import { globalOptions, type OptionSpec } from './args.js'
import type { Command } from './commands/command.js'

/** The help text of one command: synopsis, arguments, its options, the global options, notes. */
export function commandUsage(command: Command): string {
  const lines = [
    `fhir-auth ${command.name}: ${command.summary}`,
    '',
    'Usage:',
    ...command.synopsis.map((line) => `  fhir-auth ${command.name} ${line}`),
  ]
  if (command.positionals.length > 0) {
    lines.push('', 'Arguments:')
    lines.push(
      ...columns(
        command.positionals.map((spec) => [
          `<${spec.name}>${spec.isRepeatable === true ? '…' : ''}`,
          spec.description,
        ]),
      ),
    )
  }
  lines.push('', 'Options:', ...optionLines(command.options))
  lines.push('', 'Global options:', ...optionLines(globalOptions))
  for (const note of command.notes) lines.push('', ...wrap(note, 98))
  return `${lines.join('\n')}\n`
}

/** The top-level help: the command list, global options and exit codes. */
export function generalUsage(commands: readonly Command[]): string {
  const lines = [
    'fhir-auth: SMART App Launch 2.2.0 and UDAP Security STU2 from the command line',
    '',
    'Usage:',
    '  fhir-auth <command> [options]',
    '  fhir-auth <command> --help',
    '  fhir-auth --version',
    '',
    'Commands:',
    ...columns(commands.map((command) => [command.name, command.summary])),
    '',
    'Global options:',
    ...optionLines(globalOptions),
    '',
    'Exit codes: 0 success, 1 protocol or server failure, 2 usage or configuration error,',
    '3 trust failure (certificate chain or signed_metadata).',
  ]
  return `${lines.join('\n')}\n`
}

function optionLines(specs: readonly OptionSpec[]): string[] {
  return columns(
    specs.map((spec) => {
      const names = `${spec.short === undefined ? '' : `-${spec.short}, `}--${spec.name}`
      const value = spec.kind === 'string' ? ` <${spec.valueName ?? 'value'}>` : ''
      const repeat = spec.repeatable === true ? '…' : ''
      const protocol = spec.protocol === undefined ? '' : ` [${spec.protocol.toUpperCase()}]`
      return [`${names}${value}${repeat}`, `${spec.description}${protocol}`]
    }),
  )
}

function columns(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(0, ...rows.map(([left]) => left.length))
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  if (line !== '') lines.push(line)
  return lines
}
