/**
 * Smoke test of the scopes figure's machinery (not of its value: the bench reports it): the
 * string has 50 scopes, both contenders work on it, and the section reports one ratio.
 */
import { describe, expect, it } from 'vitest'
import {
  fiftyScopes,
  parsesPerOperation,
  runScopesSection,
  scopeContenders,
} from '../src/scopes/scopes-section.js'

describe('the scopes section', () => {
  it('splits and parses the same 50 scopes', () => {
    const text = fiftyScopes()
    expect(text.split(' ')).toHaveLength(50)
    const { split, parse } = scopeContenders(text)
    expect(split()).toBe(50 * parsesPerOperation)
    // 26 patient types (DocumentReference.cu merges into .rs) + 8 user + 3 restricted +
    // user/Patient (Read and read merge) + system/*.
    expect(parse()).toBe(39 * parsesPerOperation)
  })

  it('reports one info figure: the ratio and the microseconds per parse', async () => {
    const report = await runScopesSection()
    expect(report.figures).toHaveLength(1)
    const [figure] = report.figures
    expect(figure?.verdict).toBe('info')
    expect(figure?.values.ratio).toBeGreaterThan(1)
    expect(figure?.measured).toMatch(/^\d+\.\d\d× \(\d+\.\d vs \d+\.\d\d µs per parse; fastest/)
  })
})
