import { TokenError } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import { DemoContext } from './demo-context.js'
import { DemoFailure } from './demo-failure.js'
import { type Flow, runFlows, type WalkProgress } from './flow.js'
import { captureTranscript } from './transcript-capture.js'

function setUp() {
  const captured = captureTranscript()
  const context = new DemoContext(captured.transcript, captured.ledger)
  const progress: WalkProgress = { current: undefined, abandoned: false }
  return { ...captured, context, progress }
}

const passing: Flow<null> = { title: 'passes', run: async () => {} }
const failing: Flow<null> = {
  title: 'fails',
  run: async () => {
    throw new DemoFailure('the state differs')
  },
}
const skippedFlow: Flow<null> = {
  title: 'needs inputs',
  skipReason: () => ['skipped: no trust anchors'],
  run: async () => {
    throw new Error('must not run')
  },
}

describe('runFlows', () => {
  it('numbers the sections and stops at the first failure when later flows depend on it', async () => {
    const { context, progress, text } = setUp()
    const result = await runFlows(context, [passing, failing, passing], null, {
      stopAtFirstFailure: true,
      progress,
    })
    expect(result).toMatchObject({ total: 3, passed: 1, skipped: 0 })
    expect(result.failures.map((failure) => failure.number)).toEqual([2])
    expect(text()).toContain('\n 2. fails\n  ✘ section 2 failed: DemoFailure: the state differs\n')
    expect(text()).not.toContain(' 3. passes')
  })

  it('runs every independent flow and reports skipped ones with their reason', async () => {
    const { context, progress, text } = setUp()
    const result = await runFlows(context, [failing, skippedFlow, passing], null, {
      stopAtFirstFailure: false,
      progress,
    })
    expect(result).toMatchObject({ total: 3, passed: 1, skipped: 1 })
    expect(text()).toContain(' 2. needs inputs\n  – skipped: no trust anchors\n')
    expect(text()).toContain(' 3. passes')
  })

  it('starts no flow once the walk was abandoned at the time limit', async () => {
    const { context, progress } = setUp()
    progress.abandoned = true
    const result = await runFlows(context, [passing], null, { stopAtFirstFailure: true, progress })
    expect(result.passed).toBe(0)
  })
})

describe('DemoContext.refusal', () => {
  it('shows a fhir-auth error with its OAuth error code and returns it', async () => {
    const { context, text } = setUp()
    const error = await context.refusal('client.refreshToken(…)', async () => {
      throw new TokenError({ message: 'token request failed', error: 'invalid_grant' })
    })
    expect(error).toBeInstanceOf(TokenError)
    expect(text()).toContain('✘ TokenError invalid_grant: token request failed')
  })

  it('fails the demo when the call that must be refused succeeds', async () => {
    const { context } = setUp()
    await expect(context.refusal('client.refreshToken(…)', async () => 'token')).rejects.toThrow(
      new DemoFailure('expected client.refreshToken(…) to be refused; it succeeded'),
    )
  })
})
