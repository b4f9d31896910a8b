/** A `fetch` that records every URL it is asked for, then asks the runtime's own. */
export function countingFetch() {
  const requested: string[] = []
  const fetch = (url: string, init: RequestInit) => {
    requested.push(url)
    return globalThis.fetch(url, init)
  }
  const count = (url: string) => requested.filter((entry) => entry === url).length
  return { fetch, requested, count }
}
