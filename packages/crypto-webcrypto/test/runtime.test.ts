import { describe, expect, it, vi } from 'vitest'
import { clientEc256Spki } from './fixtures/webcrypto-fixtures.js'
import { pemBody } from './helpers/keys.js'

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
      // Real headless Chromium, not a DOM emulation.
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

describe('the package entry', () => {
  it('has no import-time side effects: it does not touch WebCrypto when loaded', async () => {
    vi.resetModules()
    const touched: string[] = []
    const original = globalThis.crypto
    vi.stubGlobal(
      'crypto',
      new Proxy(original, {
        get(target, property) {
          touched.push(String(property))
          const value = Reflect.get(target, property)
          return typeof value === 'function' ? value.bind(target) : value
        },
      }),
    )
    try {
      const module = await import('../src/index.js')
      expect(module.webCryptoBackend.name).toBe('webcrypto')
      expect(touched).toEqual([])
      // The backend finds WebCrypto when a method needs it.
      const verified = await module.webCryptoBackend.verifySignature({
        algorithm: 'ES256',
        publicKeySpki: pemBody(clientEc256Spki, 'PUBLIC KEY'),
        data: new Uint8Array([1]),
        signature: new Uint8Array(64),
      })
      expect(verified).toBe(false)
      expect(touched).toContain('subtle')
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('exports exactly the backend factory and the shared backend', async () => {
    const module = await import('../src/index.js')
    expect(Object.keys(module).sort()).toEqual(['createWebCryptoBackend', 'webCryptoBackend'])
    expect(Object.isFrozen(module.webCryptoBackend)).toBe(true)
  })
})
