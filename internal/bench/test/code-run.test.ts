import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { codeRun, type ScriptCoverage } from '../src/bundle/code-run.js'

const gzip = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).byteLength

/** `ran()` is called; `never()` is not; inside `ran`, the `if` branch never ran. */
const source = 'function ran(){if(x){refuse("no")}return 1}function never(){return 2}ran()'
const at = (text: string) => source.indexOf(text)
const coverage: ScriptCoverage = {
  url: 'http://127.0.0.1:1/app.js',
  source,
  // V8 lists the script first; the order of the rest must not matter.
  functions: [
    { ranges: [{ startOffset: 0, endOffset: source.length, count: 1 }] },
    {
      ranges: [
        { startOffset: at('function never'), endOffset: source.lastIndexOf('ran()'), count: 0 },
      ],
    },
    {
      ranges: [
        { startOffset: 0, endOffset: at('function never'), count: 1 },
        { startOffset: at('{refuse'), endOffset: at('return 1'), count: 0 },
      ],
    },
  ],
}

describe('codeRun: what of the loaded code a run executed', () => {
  it('drops functions that never ran whole, and with blocks also the branches that never ran', () => {
    const run = codeRun([coverage], ['app.js'])
    expect(run.functionsRunGzipBytes).toBe(gzip('function ran(){if(x){refuse("no")}return 1}ran()'))
    expect(run.blocksRunGzipBytes).toBe(gzip('function ran(){if(x)return 1}ran()'))
  })

  it('refuses a loaded chunk it has no coverage of', () => {
    expect(() => codeRun([coverage], ['other.js'])).toThrow(
      /no coverage of the loaded chunk other\.js/,
    )
  })
})
