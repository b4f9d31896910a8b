/**
 * A flow is one numbered section of the walk. The runner numbers the sections, skips those
 * whose inputs are missing, and stops at the first failure when later flows build on earlier
 * ones.
 */
import type { DemoContext } from './demo-context.js'
import { describeFailure } from './failure-text.js'

/** One section of the walk; `World` is what the flows share (servers, clients, tokens). */
export interface Flow<World> {
  readonly title: string
  /** Why the flow cannot run with this world (missing inputs), or `undefined` when it can. */
  skipReason?(world: World): readonly string[] | undefined
  run(context: DemoContext, world: World): Promise<void>
}

/** A flow that failed: its number, title and error. */
export interface FlowFailure {
  readonly number: number
  readonly title: string
  readonly error: unknown
}

/** The outcome of a walk. */
export interface WalkResult {
  readonly total: number
  readonly passed: number
  readonly skipped: number
  readonly failures: readonly FlowFailure[]
}

/** Where the walk is (for the time-limit message), and whether it was given up. */
export interface WalkProgress {
  current: { readonly number: number; readonly title: string } | undefined
  /** Set at the time limit: no further flow starts. */
  abandoned: boolean
}

/**
 * Runs `flows` in order. With `stopAtFirstFailure`, a failure ends the walk (the flows after it
 * build on its results); otherwise every flow runs.
 */
export async function runFlows<World>(
  context: DemoContext,
  flows: readonly Flow<World>[],
  world: World,
  options: { readonly stopAtFirstFailure: boolean; readonly progress: WalkProgress },
): Promise<WalkResult> {
  let passed = 0
  let skippedCount = 0
  const failures: FlowFailure[] = []
  for (const [index, flow] of flows.entries()) {
    if (options.progress.abandoned) break
    const number = index + 1
    options.progress.current = { number, title: flow.title }
    context.transcript.section(number, flow.title)
    const skipReason = flow.skipReason?.(world)
    if (skipReason !== undefined) {
      for (const line of skipReason) context.transcript.skipped(line)
      skippedCount++
      continue
    }
    try {
      await flow.run(context, world)
      passed++
    } catch (error) {
      context.transcript.refused(
        context.transcript.style.red(`section ${number} failed: ${describeFailure(error)}`),
      )
      failures.push({ number, title: flow.title, error })
      if (options.stopAtFirstFailure) break
    }
  }
  options.progress.current = undefined
  return { total: flows.length, passed, skipped: skippedCount, failures }
}
