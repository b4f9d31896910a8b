/**
 * A loopback port where connections are refused for as long as a test needs it: the stand-in
 * for a server that is down.
 *
 * A port that was listened on and then released is free again at once, and a sandbox started
 * in parallel can be given it: the "closed port" would then answer. Here the port stays bound:
 * it is the local end of a connection this helper keeps open to a server of its own. Nothing
 * listens on it, so the kernel refuses a connection to it (ECONNREFUSED), and nothing else can
 * listen on it until `close()`.
 */
import { once } from 'node:events'
import { connect, createServer, type Socket } from 'node:net'

export interface RefusingOrigin {
  /** `http://127.0.0.1:<port>`, refusing connections. */
  readonly origin: string
  /** Releases the port. */
  close(): Promise<void>
}

export async function refusingLoopbackOrigin(): Promise<RefusingOrigin> {
  const accepted: Socket[] = []
  const holder = createServer((socket) => accepted.push(socket))
  holder.listen(0, '127.0.0.1')
  await once(holder, 'listening')
  const address = holder.address()
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  const bound = connect(address.port, '127.0.0.1')
  await once(bound, 'connect')
  return {
    origin: `http://127.0.0.1:${bound.localPort}`,
    async close() {
      bound.destroy()
      for (const socket of accepted) socket.destroy()
      await new Promise<void>((resolve) => holder.close(() => resolve()))
    },
  }
}
