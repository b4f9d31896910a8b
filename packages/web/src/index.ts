/**
 * `@fhir-auth/web`: a SMART app's server side on the Fetch API's `Request` and `Response` —
 * EHR and standalone launch, the callback bound to the browser that began it, fixation-proof
 * session cookies and sign-out — for Node, Deno, Bun, Next.js route handlers, Hono and edge
 * runtimes. No `node:` module is imported: `nodeHandler` adapts it to `node:http` and Express.
 *
 * @packageDocumentation
 */

export {
  fetchRequestFrom,
  type NodeHandler,
  type NodeRequestLike,
  type NodeResponseLike,
  nodeHandler,
} from './node-handler.js'
export type {
  SmartWebAppCookieOptions,
  SmartWebAppOptions,
  SmartWebAppRoutes,
} from './options.js'
export { type SmartWebApp, smartWebApp } from './smart-web-app.js'
