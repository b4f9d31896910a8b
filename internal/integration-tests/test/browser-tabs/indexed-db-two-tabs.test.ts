/**
 * `indexedDbStore()` shared by two tabs of one origin in real headless Chromium: its
 * `setIfAbsent` is a lock both tabs can rely on. Two properties, counted (no timing decides an
 * outcome):
 *
 * - mutual exclusion: of two tabs racing for one key, exactly one wins, in every round;
 * - a tab that wins the lock another tab just freed reads what that tab wrote before freeing it.
 *   Both tabs increment one counter under the lock, read-then-write: a lost increment would be
 *   two holders reading the same value, which for sessions is two refreshes with one refresh
 *   token (`invalid_grant` on a rotating server).
 *
 * @see https://www.w3.org/TR/IndexedDB/#transaction-scheduling Indexed Database API: transaction scheduling
 */
import type { indexedDbStore } from '@fhir-auth/core'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserTabs, bundleForPage, openBrowserTabs } from './support/browser-tabs.js'

/** What the page's bundle exposes. */
declare const fhirAuth: { indexedDbStore: typeof indexedDbStore }

const rounds = 300

let browser: BrowserTabs
let tabA: Page
let tabB: Page

beforeAll(async () => {
  browser = await openBrowserTabs(
    await bundleForPage("export { indexedDbStore } from '@fhir-auth/core'"),
  )
  ;[tabA, tabB] = browser.tabs as [Page, Page]
}, 90_000)

afterAll(async () => {
  await browser?.close()
})

/** The rounds the other tab reached, heard on a BroadcastChannel. */
interface Meeting {
  readonly channel: BroadcastChannel
  readonly reached: Set<number>
  waiting?: { readonly round: number; readonly met: () => void }
}
declare const window: Window & { meeting?: Meeting }

/** Runs in a tab, in both before either races: listens for the other tab's rounds. */
function listenInTab(name: string) {
  const meeting: Meeting = { channel: new BroadcastChannel(name), reached: new Set() }
  meeting.channel.onmessage = ({ data }: MessageEvent<number>) => {
    meeting.reached.add(data)
    if (meeting.waiting?.round === data) meeting.waiting.met()
  }
  window.meeting = meeting
}

/**
 * Runs in a tab: one `setIfAbsent` per round's key. The tabs meet before each round (each posts
 * the round and waits for the other's post), so that they call together.
 */
async function raceInTab({ keyPrefix, count }: { keyPrefix: string; count: number }) {
  const store = fhirAuth.indexedDbStore()
  const meeting = window.meeting as Meeting
  const wins: boolean[] = []
  for (let round = 0; round < count; round += 1) {
    meeting.channel.postMessage(round)
    if (!meeting.reached.has(round)) {
      await new Promise<void>((met) => {
        meeting.waiting = { round, met }
      })
    }
    wins.push(await store.setIfAbsent(`${keyPrefix}${round}`, 'x', 60))
  }
  meeting.channel.close()
  return wins
}

/**
 * Runs in a tab: `count` increments of a shared counter, each under the lock: win it with
 * `setIfAbsent`, read, write one more, free it. A loser tries again on the next task.
 */
async function incrementInTab({ key, count }: { key: string; count: number }) {
  const store = fhirAuth.indexedDbStore()
  const lockKey = `${key}:lock`
  let retries = 0
  for (let done = 0; done < count; ) {
    if (await store.setIfAbsent(lockKey, 'held', 60)) {
      const value = Number((await store.get(key)) ?? '0')
      await store.set(key, String(value + 1), 60)
      await store.delete(lockKey)
      done += 1
    } else {
      retries += 1
    }
    // Yield, so that the other tab's operations interleave with this tab's.
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
  return retries
}

describe('indexedDbStore() in two Chromium tabs of one origin', () => {
  it(`setIfAbsent: exactly one tab wins each of ${rounds} overlapping rounds`, async () => {
    const options = { keyPrefix: `fhir-auth:race:${Date.now()}:`, count: rounds }
    await Promise.all([tabA, tabB].map((tab) => tab.evaluate(listenInTab, options.keyPrefix)))
    const [a = [], b = []] = await Promise.all(
      [tabA, tabB].map((tab) => tab.evaluate(raceInTab, options)),
    )
    const winners = a.map((won, round) => Number(won) + Number(b[round]))
    const outcome = {
      oneWinner: winners.filter((count) => count === 1).length,
      wonByTabA: a.filter(Boolean).length,
    }
    console.info(`indexedDbStore, two tabs racing: ${JSON.stringify(outcome)} of ${rounds}`)
    expect(winners).toHaveLength(rounds)
    expect(outcome.oneWinner).toBe(rounds)
  }, 120_000)

  it(`a lock handed between tabs ${rounds} times each: no increment lost`, async () => {
    const options = { key: `fhir-auth:counter:${Date.now()}`, count: rounds }
    const retries = await Promise.all(
      [tabA, tabB].map((tab) => tab.evaluate(incrementInTab, options)),
    )
    const total = await tabA.evaluate((key) => fhirAuth.indexedDbStore().get(key), options.key)
    console.info(
      `indexedDbStore, counter under the lock: ${total} of ${2 * rounds}, lock retries ${retries}`,
    )
    expect(total).toBe(String(2 * rounds))
    // The tabs contended for the lock: a tab was refused it while the other held it.
    expect(retries.some((count) => count > 0)).toBe(true)
  }, 120_000)
})
