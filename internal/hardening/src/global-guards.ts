/**
 * Process-wide guards for hostile-input tests: unhandled promise rejections (a library promise
 * nobody awaits that fails later) and prototype pollution (hostile JSON with `__proto__` or
 * `constructor.prototype` members reaching a shared prototype).
 */

/** Collects every unhandled rejection of the process from the moment it is created. */
export interface RejectionWatch {
  /** The rejection reasons seen since the last `take`, oldest first; empties the list. */
  take(): unknown[]
  /** Removes the listener. */
  stop(): void
}

/**
 * Registers a `process` listener for `unhandledRejection`. Vitest reports such rejections too,
 * but only for the whole run; this one lets each test assert that it caused none.
 */
export function watchUnhandledRejections(): RejectionWatch {
  let seen: unknown[] = []
  const listener = (reason: unknown) => {
    seen.push(reason)
  }
  process.on('unhandledRejection', listener)
  return {
    take() {
      const taken = seen
      seen = []
      return taken
    },
    stop() {
      process.off('unhandledRejection', listener)
    },
  }
}

/** The built-in prototypes hostile JSON could reach, by name. */
const guardedPrototypes: ReadonlyArray<readonly [string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
]

/** The own property names of the guarded prototypes at one moment. */
export type PrototypeSnapshot = ReadonlyMap<string, ReadonlySet<string>>

/** Records the own property names of `Object.prototype` and the other built-in prototypes. */
export function snapshotPrototypes(): PrototypeSnapshot {
  return new Map(
    guardedPrototypes.map(([name, prototype]) => [
      name,
      new Set(Reflect.ownKeys(prototype).map(String)),
    ]),
  )
}

/**
 * The members added to a guarded prototype since `snapshot` (e.g. `Object.prototype.polluted`),
 * plus `({}).polluted` when it reads as anything but `undefined`; empty when nothing changed.
 */
export function prototypePollutionSince(snapshot: PrototypeSnapshot): string[] {
  const added: string[] = []
  for (const [name, prototype] of guardedPrototypes) {
    const before = snapshot.get(name) ?? new Set<string>()
    for (const key of Reflect.ownKeys(prototype).map(String)) {
      if (!before.has(key)) added.push(`${name}.${key}`)
    }
  }
  const probe: Record<string, unknown> = {}
  if (probe.polluted !== undefined) added.push('({}).polluted is defined')
  return added
}

/** Waits until pending rejection events have been delivered (they fire after the microtask queue drains). */
export function settleRejectionEvents(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
