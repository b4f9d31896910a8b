/**
 * How a process waits while another holds the backend token lock (DESIGN §9, ADR 0010): it polls
 * the store 10 ms apart, doubling up to 200 ms, each wait stretched by up to as much again at
 * random (so a fleet does not poll in step), and at exactly twice the request timeout it requests
 * a token itself, writes it for the others, and warns. Timers are Vitest's fake ones and the
 * random stretch is fixed at one half, so the schedule is exact. Written for the survivors of
 * `pnpm test:mutation` in `src/tokens/shared-token-cache.ts` (docs/testing.md).
 */
import { type KeyValueStore, memoryStore } from '@fhir-auth/core'
import { expect, it, onTestFinished, vi } from 'vitest'
import { cache, lockKey, manualClock, recordingLogger, tokenKey } from './token-cache-support.js'

it('a waiter polls 10 ms doubling to 200 ms (×1.5 here), then requests at twice the request timeout', async () => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 24, 12) })
  onTestFinished(() => {
    vi.useRealTimers()
  })
  vi.spyOn(Math, 'random').mockReturnValue(0.5)
  const started = Date.now()

  const inner = memoryStore()
  await inner.setIfAbsent(lockKey, 'stuck-holder', 3_600)
  const reads: number[] = []
  const store: KeyValueStore = {
    ...inner,
    get: (key) => {
      if (key === tokenKey) reads.push(Date.now() - started)
      return inner.get(key)
    },
  }
  let requestedAt: number | undefined
  const server = {
    request: async () => {
      requestedAt = Date.now() - started
      return { access_token: 'own-token', token_type: 'Bearer', expires_in: 300 }
    },
  }
  const logger = recordingLogger()
  const waiting = cache(store, server, manualClock(), { timeoutMs: 1_000, logger }).token(60)
  await vi.advanceTimersByTimeAsync(2_000)

  expect((await waiting).accessToken).toBe('own-token')
  expect(reads).toEqual([0, 15, 45, 105, 225, 465, 765, 1065, 1365, 1665, 1965, 2000])
  expect(requestedAt).toBe(2_000)
  expect(JSON.parse((await inner.get(tokenKey)) as string).accessToken).toBe('own-token')
  expect(logger.warningFields).toEqual([{ event: 'backend_tokens.lock_wait_exceeded' }])
})
