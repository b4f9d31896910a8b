/**
 * What internal/package-checks uses of the bundle measurement: the measured apps, their budgets
 * and the breakdown printed when one is exceeded. One implementation, so the packaging check and
 * `pnpm bench` judge the same bytes.
 */
export { breakdownLines, describeGroup, modulesUnder } from './breakdown.js'
export {
  type BrowserAppBudget,
  browserAppBudgets,
  forbiddenPackages,
  forbiddenSources,
} from './budgets.js'
export {
  type BrowserAppId,
  type BrowserAppMeasurement,
  launchScopesWithOpenid,
  launchScopesWithoutOpenid,
  measureBrowserApps,
} from './measure-browser-apps.js'
