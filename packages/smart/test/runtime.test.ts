import { describe, expect, it } from 'vitest'

/** The globals that tell the runtimes apart. */
const runtimeGlobals = globalThis as {
  EdgeRuntime?: unknown
  process?: { versions?: { node?: string } }
}

describe('test runtime', () => {
  it('runs in the runtime its Vitest project names', ({ task }) => {
    // The browser project is named after its instance (internal/test-utils runtime-projects).
    const project = task.file.projectName ?? ''
    expect(project).toMatch(/^(node|edge|chromium)$/)
    if (project === 'chromium') {
      // Real headless Chromium, not a DOM emulation, and no Node underneath.
      expect(navigator.userAgent).toMatch(/HeadlessChrome\/\d+/)
      expect(runtimeGlobals.process?.versions?.node).toBeUndefined()
    } else if (project === 'edge') {
      // @edge-runtime/vm's globals, with its `EdgeRuntime` marker.
      expect(typeof runtimeGlobals.EdgeRuntime).toBe('string')
    } else {
      expect(typeof runtimeGlobals.process?.versions?.node).toBe('string')
      expect(runtimeGlobals.EdgeRuntime).toBeUndefined()
    }
  })
})
