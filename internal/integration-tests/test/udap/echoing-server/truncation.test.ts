/**
 * DESIGN §12 "Redaction happens before any truncation", for UDAP: each secret of each operation
 * is echoed in a 10 KB error_description so that it straddles the point where the library cuts
 * server text (1, 2, 4, 8, half, all but 8, all but 1 of its characters before the cut, and
 * starting right at it); no fragment of it survives in the error or the logs.
 */
import type { TokenError } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import { type EchoForm, padded } from './support/echo-forms.js'
import { useEchoingServer } from './support/echo-matrix.js'
import { runEchoed } from './support/leak-scan.js'
import { clientOperations, secretOperations, wireSecretsOf } from './support/secret-operations.js'

const server = useEchoingServer()

const refusal = (description: string) => ({
  status: 400,
  body: JSON.stringify({ error: 'invalid_grant', error_description: description }),
})

/** How many characters of a 10 KB description the error keeps (measured, not assumed). */
async function cutPoint(): Promise<number> {
  const operation = clientOperations.find((candidate) => candidate.name === 'Client.refreshToken')
  if (operation === undefined) throw new Error('no Client.refreshToken operation')
  const { error } = await runEchoed(server(), operation, {
    name: 'filler only',
    answer: () => refusal(padded('', 0)),
  })
  return (error as TokenError).errorDescription?.match(/^x+/)?.[0].length ?? 0
}

/** The secret `label` placed so that `before` of its characters come before the cut. */
function straddling(label: string, point: number, before: (length: number) => number): EchoForm {
  return {
    name: `${label} straddling the cut`,
    answer: (secrets) => {
      const secret = secrets[label] ?? ''
      return refusal(padded(secret, point - before(secret.length)))
    },
  }
}

const placements: ReadonlyArray<readonly [string, (length: number) => number]> = [
  ['1 character before the cut', () => 1],
  ['2 characters before the cut', () => 2],
  ['4 characters before the cut', () => 4],
  ['8 characters before the cut', () => 8],
  ['half before the cut', (length) => Math.floor(length / 2)],
  ['all but 8 before the cut', (length) => length - 8],
  ['all but 1 before the cut', (length) => length - 1],
  ['starting at the cut', () => 0],
]

describe('DESIGN §12 (UDAP): a secret straddling the truncation point of error_description', () => {
  it('the cut point is measured: the library keeps a prefix of a 10 KB description', async () => {
    const point = await cutPoint()
    expect(point).toBeGreaterThan(0)
    expect(point).toBeLessThan(10_240)
  })

  for (const operation of secretOperations) {
    it(`${operation.name}: every secret, every placement`, async () => {
      const point = await cutPoint()
      const probe = await runEchoed(server(), operation, {
        name: 'probe',
        answer: () => refusal('x'),
      })
      const labels = Object.keys(probe.secrets)
      expect(labels.length).toBeGreaterThan(0)
      const found: string[] = []
      for (const label of labels) {
        for (const [placement, before] of placements) {
          const run = await runEchoed(server(), operation, straddling(label, point, before))
          found.push(...run.leaks.map((leak) => `${placement}: ${leak}`))
        }
      }
      expect(found.slice(0, 5)).toEqual([])
      expect(wireSecretsOf(server().received.at(-1))).not.toEqual({})
    })
  }
})
