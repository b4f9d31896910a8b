/**
 * Browsers' `fetch` reports no transport error codes (a bare `TypeError`), so browser builds
 * carry no table of their meanings (the `#network-code-meanings` import of package.json picks
 * this file outside Node); a code some other runtime reports is shown as it is.
 *
 * @internal
 */
export const networkCodeMeanings: Readonly<Record<string, string>> = {}
