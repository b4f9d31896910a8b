import { describe, expect, it } from 'vitest'
import { createTerminalStyle, shouldUseColour } from './terminal-style.js'

describe('shouldUseColour', () => {
  const terminal = { noColorFlag: false, isTerminal: true, environment: {} }

  it('paints a terminal and leaves a pipe plain', () => {
    expect(shouldUseColour(terminal)).toBe(true)
    expect(shouldUseColour({ ...terminal, isTerminal: false })).toBe(false)
  })

  it('never paints with --no-color or a non-empty NO_COLOR, even when forced', () => {
    expect(shouldUseColour({ ...terminal, noColorFlag: true })).toBe(false)
    expect(shouldUseColour({ ...terminal, environment: { NO_COLOR: '1', FORCE_COLOR: '1' } })).toBe(
      false,
    )
    // no-color.org: an empty NO_COLOR does not count.
    expect(shouldUseColour({ ...terminal, environment: { NO_COLOR: '' } })).toBe(true)
  })

  it('paints a pipe when FORCE_COLOR is set to anything but 0', () => {
    const pipe = { ...terminal, isTerminal: false }
    expect(shouldUseColour({ ...pipe, environment: { FORCE_COLOR: '1' } })).toBe(true)
    expect(shouldUseColour({ ...pipe, environment: { FORCE_COLOR: '0' } })).toBe(false)
  })
})

describe('createTerminalStyle', () => {
  it('wraps text in ANSI sequences only when colours are on', () => {
    expect(createTerminalStyle(true).green('ok')).toBe('\u001b[32mok\u001b[39m')
    const plain = createTerminalStyle(false)
    expect([plain.bold('a'), plain.red('b'), plain.dim('c')]).toEqual(['a', 'b', 'c'])
  })
})
