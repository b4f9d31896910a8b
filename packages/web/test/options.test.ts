/**
 * `smartWebApp`'s options: every wrong one is a `ConfigurationError` naming it (an unknown name
 * lists the valid ones), and the routes, redirect targets and cookie settings given are used.
 */
import { ConfigurationError, memoryStore } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import { type SmartWebAppOptions, smartWebApp } from '../src/index.js'
import { webClient } from './support/driver.js'
import { HandleBrowser } from './support/handle-browser.js'

function refusal(options: unknown): ConfigurationError {
  try {
    smartWebApp(options as SmartWebAppOptions)
  } catch (error) {
    if (error instanceof ConfigurationError) return error
    throw error
  }
  throw new Error('accepted')
}

describe('smartWebApp options', () => {
  it('refuses each wrong option with a ConfigurationError naming it', () => {
    const clients = webClient('ehrA')
    const cases: [unknown, string][] = [
      [undefined, 'options'],
      [{}, 'clients'],
      [{ clients: {} }, 'clients'],
      [{ clients, extra: 1 }, 'extra'],
      [{ clients, store: {} }, 'store'],
      [{ clients, routes: [] }, 'routes'],
      [{ clients, routes: { home: '/' } }, 'home'],
      [{ clients, routes: { launch: 'launch' } }, 'routes.launch'],
      [{ clients, routes: { login: '//evil.example/x' } }, 'routes.login'],
      [{ clients, routes: { callback: '/a?b' } }, 'routes.callback'],
      [{ clients, routes: { logout: '/%7E' } }, 'routes.logout'],
      [{ clients, routes: { logout: 7 } }, 'routes.logout'],
      [{ clients, routes: { login: '/launch' } }, 'routes'],
      [{ clients, afterLogin: '//evil.example' }, 'afterLogin'],
      [{ clients, afterLogout: 'javascript:alert(1)' }, 'afterLogout'],
      [{ clients, afterLogin: 'relative' }, 'afterLogin'],
      [{ clients, cookie: { name: 'a b' } }, 'cookie.name'],
      [{ clients, cookie: { name: '__Host-x' } }, 'cookie.name'],
      [{ clients, cookie: { secure: 'yes' } }, 'cookie.secure'],
      [{ clients, cookie: { maxAgeSeconds: 0 } }, 'cookie.maxAgeSeconds'],
      [{ clients, cookie: { maxAgeSeconds: 1.5 } }, 'cookie.maxAgeSeconds'],
      [{ clients, cookie: { maxAgeSeconds: '60' } }, 'cookie.maxAgeSeconds'],
      [{ clients, cookie: { domain: 'x' } }, 'domain'],
    ]
    for (const [options, attribute] of cases) {
      expect(refusal(options).invalidAttribute, JSON.stringify(options)).toBe(attribute)
    }
    expect(refusal({ clients, extra: 1 }).message).toMatch(
      /unknown option "extra".*clients, store, routes/,
    )
  })

  it('uses the routes, targets and cookie settings given', async () => {
    const web = smartWebApp({
      clients: webClient('ehrA'),
      store: memoryStore(),
      routes: { login: '/auth/start', logout: '/auth/end' },
      afterLogout: 'https://app.example/goodbye',
      cookie: { name: 'my-app', secure: false, maxAgeSeconds: 300 },
    })
    const browser = new HandleBrowser(web)
    expect(await browser.send('/login')).toBeUndefined()
    const started = await browser.must('/auth/start')
    expect(started.status).toBe(302)
    expect(started.headers.getSetCookie()[0]).toMatch(
      /^my-app-launch=[^;]+; HttpOnly; SameSite=Lax; Path=\/; Max-Age=600$/,
    )
    const ended = await browser.must('/auth/end', 'POST')
    expect(ended.headers.get('location')).toBe('https://app.example/goodbye')
    expect(ended.headers.getSetCookie()).toEqual([
      'my-app=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0',
    ])
  })
})
