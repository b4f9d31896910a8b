import { describe, expect, it } from 'vitest'
import { createCapturingLogger, safeJson } from './capturing-logger.js'

describe('createCapturingLogger', () => {
  it('records every level with its fields, oldest first', () => {
    const logger = createCapturingLogger()
    logger.info('starting', { event: 'smart.discovery' })
    logger.warn('deprecated')
    logger.debug?.('details')
    logger.error('failed', { status: 500 })
    expect(logger.entries.map((entry) => entry.level)).toEqual(['info', 'warn', 'debug', 'error'])
    expect(logger.entries[3]?.fields).toEqual({ status: 500 })
    expect(logger.messages('warn')).toEqual(['deprecated'])
  })

  it('renders nested fields as JSON and through util.inspect', () => {
    const logger = createCapturingLogger()
    logger.info('nested', { outer: { inner: { deep: { deeper: 'hidden-value' } } } })
    const withValue = logger.renderedLines().filter((line) => line.includes('hidden-value'))
    expect(withValue).toHaveLength(2)
  })

  it('forgets everything on clear, and entries are snapshots', () => {
    const logger = createCapturingLogger()
    logger.info('one')
    const snapshot = logger.entries
    logger.clear()
    expect(logger.entries).toEqual([])
    expect(snapshot).toHaveLength(1)
  })
})

describe('safeJson', () => {
  it('describes a value JSON cannot serialise instead of throwing', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(safeJson(cyclic)).toBe('[not serialisable: TypeError]')
    expect(safeJson(undefined)).toBe('undefined')
  })
})
