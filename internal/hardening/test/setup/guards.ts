/**
 * Runs around every test of the package: no test may leave an unhandled rejection behind or a
 * polluted prototype. A failure here is charged to the test that caused it.
 */
import { afterAll, afterEach, expect } from 'vitest'
import {
  prototypePollutionSince,
  settleRejectionEvents,
  snapshotPrototypes,
  watchUnhandledRejections,
} from '../../src/global-guards.js'

const rejections = watchUnhandledRejections()
const prototypes = snapshotPrototypes()

afterEach(async () => {
  await settleRejectionEvents()
  const unhandled = rejections
    .take()
    .map((reason) =>
      reason instanceof Error ? `${reason.name}: ${reason.message}` : typeof reason,
    )
  expect(unhandled, 'unhandled rejections during this test').toEqual([])
  expect(prototypePollutionSince(prototypes), 'prototype pollution during this test').toEqual([])
})

afterAll(() => {
  rejections.stop()
})
