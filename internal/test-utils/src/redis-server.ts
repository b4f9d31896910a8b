/**
 * A real `redis-server` (Debian's package) for tests: started on a free loopback port with
 * persistence off, stopped by PID. Node only.
 *
 * The port is found by binding port 0 and closing it, so another process can take it before
 * Redis binds: Redis then exits with "Address already in use" and we start it on another port.
 * That retry has a named cause and a bound; any other failure is reported at once.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

/** A running Redis and how to stop it. */
export interface RedisServer {
  readonly port: number
  readonly url: string
  readonly pid: number
  stop(): Promise<void>
}

/** Where the binary is: `REDIS_SERVER_PATH`, else Debian's path. */
export function redisServerPath(): string {
  return process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server'
}

const running = new Set<() => void>()
process.once('exit', () => {
  for (const kill of running) kill()
})

/**
 * Starts Redis and resolves once it accepts connections. When `redis-server` is not installed,
 * runs `scripts/ensure-system-packages.sh` first (it installs Debian's package when it runs as
 * root, as in CI and fresh containers) — once per process.
 *
 * @throws Error naming the missing package when `redis-server` is still not installed (the test
 *   must fail, not skip).
 */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = redisServerPath()
  if (!existsSync(binary)) installSystemPackages()
  if (!existsSync(binary)) {
    throw new Error(
      `${binary} is missing: install Debian's redis-server (sudo apt-get install -y redis-server; CI runs scripts/ensure-system-packages.sh)`,
    )
  }
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const started = await launch(binary, port)
    if (started !== 'port-taken') return started
    if (attempt === 5) throw new Error('redis-server found its port taken 5 times in a row')
  }
}

let installAttempted = false

/** Runs the repository's installer of the Debian packages the tests use; its failure is reported by the caller. */
function installSystemPackages(): void {
  if (installAttempted) return
  installAttempted = true
  const script = join(import.meta.dirname, '..', '..', '..', 'scripts', 'ensure-system-packages.sh')
  if (!existsSync(script)) return
  spawnSync('bash', [script], { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function launch(binary: string, port: number): Promise<RedisServer | 'port-taken'> {
  const child = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--loglevel',
      'notice',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const kill = () => child.kill('SIGKILL')
  running.add(kill)
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kill()
      reject(new Error(`redis-server did not get ready within 15 s:\n${output}`))
    }, 15_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (!output.includes('Ready to accept connections')) return
      clearTimeout(timer)
      child.stdout.off('data', onData)
      resolve({
        port,
        url: `redis://127.0.0.1:${port}`,
        pid: child.pid ?? 0,
        stop: () => stop(child, kill),
      })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.once('exit', () => {
      running.delete(kill)
      clearTimeout(timer)
      if (output.includes('Address already in use')) resolve('port-taken')
      else reject(new Error(`redis-server exited before it was ready:\n${output}`))
    })
  })
}

function stop(child: ReturnType<typeof spawn>, kill: () => void): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const force = setTimeout(kill, 5_000)
    child.once('exit', () => {
      clearTimeout(force)
      running.delete(kill)
      resolve()
    })
    child.kill('SIGTERM')
  })
}
