/**
 * A real `redis-server` (Debian's package) for tests: started on a free loopback port with
 * persistence off, stopped by PID. Node only.
 *
 * The port is found by binding port 0 and closing it, so another process can take it before
 * Redis binds: Redis then exits with "Address already in use" and we start it on another port.
 * That retry has a named cause and a bound; any other failure is reported at once.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

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

/** A running Redis Cluster of loopback nodes (no replicas) and how to stop it. */
export interface RedisCluster {
  readonly nodes: readonly RedisServer[]
  /** `redis://127.0.0.1:<port>` of every node: the root nodes for `createCluster`. */
  readonly urls: readonly string[]
  stop(): Promise<void>
}

/**
 * Starts a Redis Cluster: `size` nodes (`--cluster-enabled yes`, each with its own cluster
 * config file in a fresh temporary directory), joined with `redis-cli --cluster create …
 * --cluster-replicas 0 --cluster-yes`; resolves once every node reports `cluster_state:ok`.
 *
 * @throws Error when a node does not start or the cluster does not form within 30 s.
 */
export async function startRedisCluster(size = 3): Promise<RedisCluster> {
  const binary = redisServerPath()
  if (!existsSync(binary)) installSystemPackages()
  const directory = mkdtempSync(join(tmpdir(), 'fhir-auth-redis-cluster-'))
  const nodes: RedisServer[] = []
  const stopAll = async () => {
    await Promise.all(nodes.map((node) => node.stop()))
    rmSync(directory, { recursive: true, force: true })
  }
  try {
    while (nodes.length < size) {
      const port = await freePort()
      const started = await launch(binary, port, [
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(directory, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '5000',
        '--dir',
        directory,
      ])
      if (started !== 'port-taken') nodes.push(started)
    }
    const cli = join(dirname(binary), 'redis-cli')
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`)
    const created = spawnSync(
      cli,
      ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'],
      { encoding: 'utf8', timeout: 30_000 },
    )
    if (created.status !== 0) {
      throw new Error(`redis-cli --cluster create failed:\n${created.stdout}${created.stderr}`)
    }
    const deadline = Date.now() + 30_000
    for (const node of nodes) {
      for (;;) {
        const info = spawnSync(cli, ['-p', String(node.port), 'cluster', 'info'], {
          encoding: 'utf8',
        })
        if (info.stdout.includes('cluster_state:ok')) break
        if (Date.now() > deadline) throw new Error(`the cluster did not form:\n${info.stdout}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  } catch (error) {
    await stopAll()
    throw error
  }
  return { nodes, urls: nodes.map((node) => node.url), stop: stopAll }
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

function launch(
  binary: string,
  port: number,
  extraArguments: readonly string[] = [],
): Promise<RedisServer | 'port-taken'> {
  const child = spawn(
    binary,
    [
      ...extraArguments,
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
