/**
 * Smoke test of the web figure's machinery (not of its value: the bench reports it): both
 * contenders complete a real launch round trip against the sandbox and save a session, and the
 * section reports one figure per store with its ratio against the 1.15 goal.
 */
import { memoryStore } from '@fhir-auth/client'
import { startSmartSandbox } from '@fhir-auth/sandbox'
import { describe, expect, it } from 'vitest'
import { runWebSection, webContenders } from '../src/web/web-section.js'

describe('the web section', () => {
  it('signs in by hand and through web.handle, each saving a session', async () => {
    const sandbox = await startSmartSandbox({
      clients: [
        {
          client_id: 'bench-web-app',
          token_endpoint_auth_method: 'client_secret_basic',
          client_secret: 'bench-web-app-secret-0123456789',
        },
      ],
    })
    try {
      const { byHand, web } = webContenders(sandbox, memoryStore())
      expect(await byHand()).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(await web()).toMatch(/^__Host-fhir-auth=[A-Za-z0-9_-]{43}; HttpOnly/)
      expect(sandbox.requests.filter((request) => request.path === '/token')).toHaveLength(2)
    } finally {
      await sandbox.close()
    }
  })

  it('reports a ratio with memoryStore and with Redis against the goal', async () => {
    const report = await runWebSection({ warmupIterations: 1, samples: 2 })
    expect(report.figures.map((figure) => figure.id)).toEqual([
      'web.launchRoundTrip.memory',
      'web.launchRoundTrip.redis',
    ])
    for (const figure of report.figures) {
      expect(figure.goal).toBe('≤ 1.15×')
      expect(figure.values.ratio).toBeGreaterThan(0)
      expect(['pass', 'miss']).toContain(figure.verdict)
    }
  }, 60_000)
})
