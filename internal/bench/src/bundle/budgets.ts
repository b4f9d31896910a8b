/**
 * The byte budgets of the measured browser apps (issue 16): gzip bytes of every chunk the
 * browser fetched during the app's run, each chunk gzipped on its own. Deterministic: the same
 * sources give the same bytes, so a budget is a check, not a timed test.
 *
 * Two numbers per app:
 * - `limitBytes`: above it the packaging check (internal/package-checks) and `pnpm bench` fail.
 *   It is today's figure with a little room (about 300 B), so any growth is a decision made on
 *   purpose. Measured 2026-11-24 after the third bytes pass: asymmetric 22 978 B in 8 chunks,
 *   public 27 503 B in 9, publicWithoutOpenid 20 633 B in 3, clientImport 16 409 B in 2 (before
 *   it: 25 330, 29 855, 22 195 and 17 843 B). Raised on purpose for the two public apps (+200 B)
 *   after the fixes of stop 20 (single-use launches without `take`, the repeated-`iss` rule, the
 *   launch context kept through a refresh, user info refused in every URL, a session's tokens
 *   redacted from refresh errors): 23 115 / 27 753 / 20 889 / 16 538 B. Raised on purpose again
 *   (+100 B) for asymmetric and clientImport on 2026-11-25: code loaded on demand that fails to
 *   load (a chunk gone after a deployment) is a typed `HttpError` rather than the platform's
 *   `TypeError`, about 95 B in every app: 23 241 / 27 863 / 20 983 / 16 634 B. Raised on purpose
 *   for all four (+150 B) after the echo fixes of the redaction probe (a request secret echoed
 *   JSON-escaped, as one JWS part, as a 2xx member name or in a Content-Type is redacted; the
 *   code is on the synchronous error path of every token request): 23 352 / 27 982 / 21 106 / 16 750 B.
 *   With signature checks passing a load failure on (not a verdict): 23 353 / 28 003 / 21 106 /
 *   16 751 B. Raised on purpose for all four (+100 B) after a review of that redaction (a secret
 *   echoed across the Content-Type's `;`, in lower-case percent hex, inside a longer secret, or
 *   holding a lone surrogate, which made redaction throw a `URIError`): 23 446 / 28 100 /
 *   21 198 / 16 842 B. Raised on purpose for three (+1.2–1.3 KB) and lowered for `clientImport`
 *   (−6.2 KB) on 2026-11-25, when the SMART request path (`SmartProtocol`, smart's app-launch
 *   code, core's request plumbing and `sendRequest`) moved from up front to the first operation
 *   (ADR 0012, addendum "up front"): two more chunks per flow, 4.3–6.2 KB less before the app
 *   does anything. 24 689 / 29 319 / 22 409 / 10 578 B. Raised on purpose for all four (+250 B,
 *   chunks loaded and up front) after the review of how callers use the client: a clock checked
 *   at every reading (`now: Date.now` was a `TypeError`), a logger that cannot fail an operation,
 *   `resumeSession` reading a caller's token response once, into a copy, and `backendTokens`
 *   copying its scopes and `hl7-b2b` context when the handle is made: up-front code, as
 *   `new Client`, `resumeSession` and `backendTokens` are. 24 942 / 29 573 / 22 669 / 10 802 B
 *   (up front 11 102 / 11 635 / 11 635 / 10 802 B). Raised on purpose for the three launching
 *   apps (+200 B) for issue 25: a `clientSecret` on a public client is warned about by
 *   `new Client` (up front, about 100 B) and its `invalid_client` says so (the check runs after
 *   every failed token request; the message loads only then): 25 156 / 22 876 / 29 786 /
 *   10 907 B.
 *   Raised on purpose for all four (+250 B,
 *   chunks loaded and up front) on 2026-11-28 for the URI host rule (a configured URL must name
 *   its host as the WHATWG URL parser reads it: no backslash, percent-encoding, user info or
 *   trailing dot), which `new Client` applies to every configured URL: about 220 B in every app,
 *   the rule kept to one short function and one message so that the public apps stay within
 *   issue 12's 12 KB up front. 25 165 / 29 789 / 22 878 / 11 024 B (up front 11 323 / 11 850 /
 *   11 850 / 11 024 B).
 *   Raised on purpose on 2026-11-28 (+600–700 B
 *   loaded, +400 B up front) for sessions bound to their server (issue 24, findings 9–13): a
 *   `TokenSet` records and serializes its binding and reads its ID token claims back from the
 *   carried ID token, `resumeSession` refuses a session serialized for another server or
 *   client (synchronously, so up front), a failed `onTokens` is redelivered, refreshes are
 *   queued per scope set, and a refreshed ID token that fails is dropped rather than fatal:
 *   25 535 / 30 259 / 23 346 / 11 227 B (up front 11 528 / 12 056 / 12 056 / 11 227 B).
 *   Raised on purpose for the three SMART apps
 *   (+1.1–1.4 KB) with the SMART issuer binding (ADR 0013): the binding and its reading of an
 *   issuer's openid-configuration load with `SmartProtocol` (RFC 9207 needs them without
 *   `openid`), in a chunk the ID token validator shares: 26 022 / 31 010 / 23 844 / 10 802 B
 *   (from 24 946 / 29 582 / 22 670 / 10 804 B measured just before).
 * - `upFrontLimitBytes`: the same kind of limit for the chunks that load before the app does
 *   anything (the entry chunk and its static imports). Set 2026-11-25 at 10 880 / 11 407 /
 *   11 407 / 10 578 B with a little room; +250 B for all four with the caller review above, and
 *   +250 B again with the URI host rule, and +400 B for all four with the sessions of issue 24.
 * - `issueBudgetBytes` / `issueGoalBytes`: what issue 16 asked for, for the chunks loaded.
 *   Reported next to the figure (`pass` when met, `miss` when not); see the bench README for why
 *   they are not met yet.
 * - `upFrontIssueBudgetBytes` / `upFrontIssueGoalBytes`: what issue 12 asked for the public app,
 *   up front (≤ 12 KB, goal ≤ 8 KB), reported the same way.
 */
import type { BrowserAppId } from './measure-browser-apps.js'

/** One app's budget. */
export interface BrowserAppBudget {
  readonly app: BrowserAppId
  /** Gzip bytes above which the check fails. */
  readonly limitBytes: number
  /** Issue 16's budget for this app, when it set one. */
  readonly issueBudgetBytes?: number | undefined
  /** Issue 16's goal for this app, when it set one. */
  readonly issueGoalBytes?: number | undefined
  /** Gzip bytes up front (the entry chunk and its static imports) above which the check fails. */
  readonly upFrontLimitBytes: number
  /** Issue 12's budget for the bytes up front, when it set one. */
  readonly upFrontIssueBudgetBytes?: number | undefined
  /** Issue 12's goal for the bytes up front, when it set one. */
  readonly upFrontIssueGoalBytes?: number | undefined
  /** Which of the issue's apps this is, and why this variant carries the issue's budget. */
  readonly note: string
}

/** The packages no measured SMART app may load: PKCS#12 and Node-only code. */
export const forbiddenPackages: readonly string[] = Object.freeze(['pkijs', 'asn1js', 'node-forge'])

/** Source folders no measured SMART app may load: UDAP. */
export const forbiddenSources: readonly string[] = Object.freeze([
  'packages/udap/',
  'packages/client/src/udap/',
])

export const browserAppBudgets: readonly BrowserAppBudget[] = Object.freeze([
  {
    app: 'asymmetric',
    limitBytes: 26_150,
    upFrontLimitBytes: 11_250,
    issueBudgetBytes: 16_000,
    issueGoalBytes: 12_000,
    note: "issue 16's asymmetric SMART browser app, as the issue names it",
  },
  {
    app: 'publicWithoutOpenid',
    limitBytes: 23_950,
    upFrontLimitBytes: 11_750,
    upFrontIssueBudgetBytes: 12_000,
    upFrontIssueGoalBytes: 8_000,
    issueBudgetBytes: 12_000,
    issueGoalBytes: 8_000,
    note: "issue 16's public SMART browser app: the flow the issue names, without an ID token to validate (the issue's figures were taken before sessions, with no ID token validation)",
  },
  {
    app: 'public',
    limitBytes: 31_100,
    upFrontLimitBytes: 11_750,
    upFrontIssueBudgetBytes: 12_000,
    upFrontIssueGoalBytes: 8_000,
    note: 'the usual launch (openid fhirUser): the public app plus ID token validation (core/oidc, JWKS, WebCrypto verification); no issue budget of its own',
  },
  {
    app: 'clientImport',
    limitBytes: 11_350,
    upFrontLimitBytes: 11_350,
    note: 'what any app pays before it does anything; no issue budget',
  },
])
