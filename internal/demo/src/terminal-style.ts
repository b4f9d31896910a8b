/**
 * ANSI colours for the transcript, or none at all: one switch decided once at start-up, so no
 * function below has to ask again.
 */

/** Text painters; each returns its input unchanged when colours are off. */
export interface TerminalStyle {
  readonly colour: boolean
  readonly bold: (text: string) => string
  readonly dim: (text: string) => string
  readonly red: (text: string) => string
  readonly green: (text: string) => string
  readonly yellow: (text: string) => string
  readonly blue: (text: string) => string
  readonly magenta: (text: string) => string
  readonly cyan: (text: string) => string
}

/**
 * A style with or without ANSI escape sequences.
 *
 * @param colour whether to paint; see {@link shouldUseColour}.
 */
export function createTerminalStyle(colour: boolean): TerminalStyle {
  const paint =
    (open: number, close: number) =>
    (text: string): string =>
      colour ? `\u001b[${open}m${text}\u001b[${close}m` : text
  return {
    colour,
    bold: paint(1, 22),
    dim: paint(2, 22),
    red: paint(31, 39),
    green: paint(32, 39),
    yellow: paint(33, 39),
    blue: paint(34, 39),
    magenta: paint(35, 39),
    cyan: paint(36, 39),
  }
}

/** What decides whether the transcript is coloured. */
export interface ColourSignals {
  /** `--no-color` was given. */
  readonly noColorFlag: boolean
  /** The standard output is a terminal. */
  readonly isTerminal: boolean
  /** The process environment (only `NO_COLOR` and `FORCE_COLOR` are read). */
  readonly environment: Readonly<Record<string, string | undefined>>
}

/**
 * Colours only for a terminal, never when the user said no: `--no-color` or a non-empty
 * `NO_COLOR` always win, `FORCE_COLOR` (other than `0`) paints a pipe too.
 *
 * @see https://no-color.org/
 */
export function shouldUseColour(signals: ColourSignals): boolean {
  if (signals.noColorFlag) return false
  const noColor = signals.environment.NO_COLOR
  if (noColor !== undefined && noColor !== '') return false
  const forceColor = signals.environment.FORCE_COLOR
  if (forceColor !== undefined && forceColor !== '' && forceColor !== '0') return true
  return signals.isTerminal
}
