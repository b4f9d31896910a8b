/**
 * How every browser test and the bundle benchmark start Chromium: Debian's `chromium` package
 * (never a browser Playwright downloads) unless `CHROMIUM_PATH` names another, headless, with
 * nothing in the background that could reach the network or slow a run.
 */

/** Debian's chromium unless CHROMIUM_PATH says otherwise. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** The flags for a headless run in a container (no sandbox, no GPU, no background updates). */
export const chromiumArguments: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
])
