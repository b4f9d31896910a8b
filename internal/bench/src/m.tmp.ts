import { measureBrowserApps } from './bundle/measure-browser-apps.js'
const ms = await measureBrowserApps()
console.log(ms.map((m) => `${m.id} ${m.loaded.gzipBytes} up=${m.upFront.gzipBytes} min=${m.loaded.minifiedBytes}`).join('\n'))
