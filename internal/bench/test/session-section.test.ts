/**
 * Smoke test of the session figure's machinery (not of its value: the bench reports it): both
 * contenders do the work they claim, and the section reports one ratio with its per-call times.
 */
import { describe, expect, it } from 'vitest'
import {
  callsPerOperation,
  runSessionSection,
  sessionContenders,
} from '../src/session/session-section.js'

describe('the session section', () => {
  it('times session.accessToken() and an awaited variable on the same token', async () => {
    const { variable, session } = sessionContenders()
    const expected = 'bench-access-token'.length * callsPerOperation
    expect(await variable()).toBe(expected)
    expect(await session()).toBe(expected)
  })

  it('reports one info figure: the ratio and the nanoseconds per call of each', async () => {
    const report = await runSessionSection()
    expect(report.figures).toHaveLength(1)
    const [figure] = report.figures
    expect(figure?.verdict).toBe('info')
    expect(figure?.values.ratio).toBeGreaterThan(0)
    expect(figure?.values.sessionNsPerCall).toBeGreaterThan(0)
    expect(figure?.measured).toMatch(/^\d+\.\d\d× \(\d+ vs \d+ ns per call; fastest/)
  })
})
