#!/usr/bin/env node
/**
 * Packaging check for the six published fhir-auth packages (`pnpm check:packages`, after
 * `pnpm build`). It guards what a user gets from npm rather than what the workspace sees:
 *
 * 1. each package packs (`pnpm pack`, which rewrites `workspace:` ranges; `pnpm pack:all` packs the
 *    same way into packs/) into a tarball with
 *    its `dist`, its sources for the `@fhir-auth/source` condition and declaration maps, a
 *    README, `engines.node` ">=20.19" (what CI tests), and no tests or test fixtures;
 * 2. publint in strict mode finds nothing in that tarball;
 * 3. Are-The-Types-Wrong (`attw`, on the same tarball) finds nothing but `CJSResolvesToESM`:
 *    the packages are ESM only, so `require()` from CommonJS reaches an ES module. Node 20.19+
 *    loads it (`require(esm)`); TypeScript under `node16` from a CommonJS file asks for a
 *    dynamic `import()`. That is the expected price of ESM only, as for jose and oauth4webapi;
 * 4. the six tarballs install with npm into an empty project (their registry dependencies,
 *    node-forge, pkijs and asn1js, come from the npm registry), and
 *    a. a plain Node ESM program imports every entry point and does one real thing with each
 *       (internal/package-checks/installed/node-smoke.mjs);
 *    b. esbuild bundles a browser entry using `@fhir-auth/client` from that tree
 *       (`platform: 'browser'`): no node-forge, no `node:` import, and no pkijs, asn1js or
 *       node-forge code in the statically loaded part
 *       (docs/adr/0006-default-crypto-and-lazy-protocols.md);
 * 5. it prints the install footprint of `@fhir-auth/client` (packages in node_modules, MB on
 *    disk) next to fhirclient's, and of `@fhir-auth/smart` alone.
 *
 * The rules themselves are in internal/package-checks/src/packaging-rules.mjs, with tests.
 * Options: `--report <file>` writes the results as JSON; `--keep` keeps the scratch directory.
 * Exits non-zero when any check fails.
 */
import { spawnSync } from 'node:child_process'
import {
  closeSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import {
  packTarball,
  publishedPackageDirectories,
} from '../internal/package-checks/src/pack-tarballs.mjs'
import {
  blockingAttwProblems,
  blockingPublintMessages,
  browserBundleProblems,
  installedPackages,
} from '../internal/package-checks/src/packaging-rules.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const checksDirectory = join(root, 'internal', 'package-checks', 'installed')
const fixturesDirectory = join(root, 'internal', 'test-pki', 'fixtures')
const attwBinary = join(root, 'node_modules', '.bin', 'attw')

const packageDirectories = publishedPackageDirectories

/** The comparison the issue asks for, quoted from the issue rather than measured here. */
const fhirclientFootprint = { packages: 706, megabytes: 301 }

const argumentsGiven = process.argv.slice(2)
const keepScratch = argumentsGiven.includes('--keep')
const reportIndex = argumentsGiven.indexOf('--report')
const reportPath = reportIndex === -1 ? undefined : argumentsGiven[reportIndex + 1]

const failures = []
const report = { packages: {}, footprint: {}, browserBundle: {}, smoke: [], durationsMs: {} }

function fail(message) {
  failures.push(message)
  console.log(`FAIL ${message}`)
}

function pass(message) {
  console.log(`ok   ${message}`)
}

/** Runs a command and returns its result; a spawn error or timeout counts as a failed run. */
function run(command, commandArguments, options) {
  const result = spawnSync(command, commandArguments, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 420_000,
    ...options,
    env: { ...process.env, NO_COLOR: '1', ...options?.env },
  })
  return {
    status: result.error === undefined ? result.status : null,
    stdout: result.stdout ?? '',
    stderr: `${result.stderr ?? ''}${result.error === undefined ? '' : String(result.error)}`,
  }
}

async function timed(step, action) {
  const started = performance.now()
  try {
    return await action()
  } finally {
    report.durationsMs[step] = Math.round(performance.now() - started)
  }
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'))
}

function checkBuilt() {
  const missing = packageDirectories.filter(
    (name) =>
      !existsSync(join(root, 'packages', name, 'dist', 'index.js')) ||
      !existsSync(join(root, 'packages', name, 'dist', 'index.d.ts')),
  )
  if (missing.length > 0) {
    fail(`no build output for ${missing.join(', ')}: run \`pnpm build\` first`)
    return false
  }
  return true
}

/** Packs one package and checks what its tarball holds. Returns the tarball path. */
function packPackage(name, tarballDirectory) {
  const packed = packTarball(root, name, tarballDirectory)
  if (packed.listing === undefined) {
    fail(`${packed.name}: ${packed.problems.join('; ')}`)
    return undefined
  }
  report.packages[packed.name] = { tarball: packed.tarball, files: packed.listing.length }
  if (packed.problems.length > 0) fail(`${packed.name}: tarball ${packed.problems.join('; ')}`)
  else pass(`${packed.name}: packed ${packed.listing.length} files`)
  return { name: packed.name, tarball: packed.tarball }
}

async function runPublint(packed) {
  const { publint } = await import('publint')
  const { formatMessage } = await import('publint/utils')
  const bytes = readFileSync(packed.tarball)
  const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  const result = await publint({ pack: { tarball }, strict: true, level: 'suggestion' })
  const messages = result.messages.map((message) => ({
    type: message.type,
    text: formatMessage(message, result.pkg) ?? message.code,
  }))
  report.packages[packed.name].publint = messages
  const blocking = blockingPublintMessages(messages)
  for (const message of messages.filter((candidate) => candidate.type === 'suggestion')) {
    console.log(`     publint suggestion for ${packed.name}: ${message.text}`)
  }
  if (blocking.length > 0) {
    fail(`${packed.name}: publint --strict\n${blocking.map((m) => `  ${m.text}`).join('\n')}`)
  } else pass(`${packed.name}: publint --strict`)
}

function runAttw(packed) {
  // attw writes its report with console.log and then calls process.exit(1) when it found
  // problems (the accepted CJSResolvesToESM counts). Into a pipe, Node writes asynchronously
  // past 64 KiB and exit drops the rest: @fhir-auth/core's report (~180 KB) came back cut at
  // 128 KiB in one CI run of several. A file is written synchronously, so the report is whole.
  const reportPath = `${packed.tarball}.attw.json`
  const reportFile = openSync(reportPath, 'w')
  let result
  try {
    result = run(attwBinary, [packed.tarball, '--format', 'json'], {
      stdio: ['ignore', reportFile, 'pipe'],
    })
  } finally {
    closeSync(reportFile)
  }
  const reportText = readFileSync(reportPath, 'utf8')
  let analysis
  try {
    analysis = JSON.parse(reportText).analysis
  } catch {
    fail(`${packed.name}: attw did not report\n${result.stderr}${reportText.slice(0, 2000)}`)
    return
  }
  const problems = analysis.problems ?? []
  const blocking = blockingAttwProblems(problems)
  const accepted = problems.filter((problem) => !blocking.includes(problem))
  report.packages[packed.name].attw = { accepted, blocking }
  if (blocking.length > 0) {
    const lines = blocking.map(
      (problem) => `  ${problem.kind} ${problem.entrypoint ?? ''} ${problem.resolutionKind ?? ''}`,
    )
    fail(`${packed.name}: attw --pack\n${lines.join('\n')}`)
  } else {
    const entrypoints = [...new Set(accepted.map((problem) => problem.entrypoint))].join(', ')
    pass(`${packed.name}: attw (accepted CJSResolvesToESM for ${entrypoints || 'none'})`)
  }
}

/** Installs tarballs with npm into a new empty project; returns the project directory. */
function installProject(directory, tarballs) {
  mkdirSync(directory, { recursive: true })
  writeFileSync(
    join(directory, 'package.json'),
    `${JSON.stringify({ name: 'fhir-auth-install-check', private: true, type: 'module' }, null, 2)}\n`,
  )
  const installed = run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs],
    { cwd: directory },
  )
  if (installed.status !== 0) {
    fail(
      `npm install of ${tarballs.map((path) => relative(directory, path)).join(', ')} failed\n${installed.stderr}`,
    )
    return false
  }
  return true
}

/** Packages in a node_modules tree (nested ones too) and their size on disk. */
function measureNodeModules(nodeModules) {
  let bytesOnDisk = 0
  const walkBytes = (path) => {
    const stats = lstatSync(path)
    bytesOnDisk += stats.blocks * 512
    if (stats.isDirectory()) for (const entry of readdirSync(path)) walkBytes(join(path, entry))
  }
  walkBytes(nodeModules)
  const names = installedPackages(nodeModules)
  return {
    packages: names.length,
    megabytes: Math.round((bytesOnDisk / 1024 / 1024) * 100) / 100,
    names,
  }
}

function runNodeSmoke(project) {
  copyFileSync(join(checksDirectory, 'node-smoke.mjs'), join(project, 'node-smoke.mjs'))
  const result = run('node', ['node-smoke.mjs', fixturesDirectory], {
    cwd: project,
    timeout: 120_000,
  })
  const lines = result.stdout.split('\n').filter((line) => line.startsWith('ok '))
  report.smoke = lines
  if (result.status !== 0) {
    fail(`Node ESM import of the installed packages\n${result.stdout}${result.stderr}`)
  } else pass(`Node ESM import of the installed packages (${lines.length} checks)`)
}

async function runBrowserBundle(project) {
  const esbuild = await import('esbuild')
  copyFileSync(join(checksDirectory, 'browser-entry.mjs'), join(project, 'browser-entry.mjs'))
  const outdir = join(project, 'bundle')
  let result
  try {
    result = await esbuild.build({
      absWorkingDir: project,
      entryPoints: ['browser-entry.mjs'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      splitting: true,
      minify: true,
      outdir,
      metafile: true,
      logLevel: 'silent',
    })
  } catch (error) {
    fail(`esbuild browser bundle of @fhir-auth/client failed\n${error.message}`)
    return
  }
  const { metafile } = result
  const { problems, outputs, initial } = browserBundleProblems(metafile, (path) =>
    readFileSync(join(project, path), 'utf8'),
  )
  const size = (paths) => paths.reduce((sum, path) => sum + metafile.outputs[path].bytes, 0)
  const initialGzip = initial.reduce(
    (sum, path) => sum + gzipSync(readFileSync(join(project, path))).length,
    0,
  )
  report.browserBundle = {
    initialBytes: size(initial),
    initialGzipBytes: initialGzip,
    totalBytes: size(outputs),
    chunks: outputs.length,
    problems,
  }
  const figures = `initial ${(size(initial) / 1024).toFixed(1)} KiB (${(initialGzip / 1024).toFixed(1)} KiB gzip), all ${outputs.length} chunks ${(size(outputs) / 1024).toFixed(1)} KiB`
  if (problems.length > 0) fail(`browser bundle of @fhir-auth/client: ${problems.join('; ')}`)
  else pass(`browser bundle of @fhir-auth/client: ${figures}`)
}

function printFootprint() {
  const client = report.footprint.client
  const smart = report.footprint.smart
  if (client === undefined) return
  console.log('')
  console.log('Install footprint (npm install into an empty folder, node_modules only):')
  console.log(
    `  @fhir-auth/client  ${client.packages} packages, ${client.megabytes} MB  (${client.names.join(', ')})`,
  )
  if (smart !== undefined) {
    console.log(`  @fhir-auth/smart   ${smart.packages} packages, ${smart.megabytes} MB`)
  }
  console.log(
    `  fhirclient         ${fhirclientFootprint.packages} packages, ~${fhirclientFootprint.megabytes} MB  (quoted from the issue, not measured here)`,
  )
}

/** Names a published (non-private) package under packages/ that this check does not cover. */
function noticeUncheckedPackages() {
  const unchecked = readdirSync(join(root, 'packages')).filter((name) => {
    const manifestPath = join(root, 'packages', name, 'package.json')
    if (packageDirectories.includes(name) || !existsSync(manifestPath)) return false
    return readJson(manifestPath).private !== true
  })
  if (unchecked.length > 0) {
    console.log(`note packages/${unchecked.join(', packages/')} not covered by this check yet`)
  }
  report.uncheckedPackages = unchecked
}

async function main() {
  noticeUncheckedPackages()
  if (!checkBuilt()) return
  const scratch = mkdtempSync(join(tmpdir(), 'fhir-auth-package-check-'))
  report.scratch = scratch
  try {
    const tarballDirectory = join(scratch, 'tarballs')
    mkdirSync(tarballDirectory)
    const packed = await timed('pack', () =>
      packageDirectories.map((name) => packPackage(name, tarballDirectory)).filter(Boolean),
    )
    if (packed.length !== packageDirectories.length) return
    await timed('publint', async () => {
      for (const entry of packed) await runPublint(entry)
    })
    await timed('attw', () => {
      for (const entry of packed) runAttw(entry)
    })

    const project = join(scratch, 'client-project')
    const installed = await timed('install', () =>
      installProject(
        project,
        packed.map((entry) => entry.tarball),
      ),
    )
    if (!installed) return
    pass(`npm install of the ${packed.length} tarballs into an empty project`)

    // What a user of the library installs: @fhir-auth/client and what it depends on (not the CLI,
    // nor the optional Redis store, which brings the redis client package with it, nor the web layer).
    const clientProject = join(scratch, 'client-only-project')
    const clientTarballs = packed
      .filter(
        (entry) =>
          !['@fhir-auth/cli', '@fhir-auth/store-redis', '@fhir-auth/web'].includes(entry.name),
      )
      .map((entry) => entry.tarball)
    if (await timed('install-client', () => installProject(clientProject, clientTarballs))) {
      report.footprint.client = measureNodeModules(join(clientProject, 'node_modules'))
    }

    const smartProject = join(scratch, 'smart-project')
    const smartTarballs = packed
      .filter((entry) => ['@fhir-auth/core', '@fhir-auth/smart'].includes(entry.name))
      .map((entry) => entry.tarball)
    if (await timed('install-smart', () => installProject(smartProject, smartTarballs))) {
      report.footprint.smart = measureNodeModules(join(smartProject, 'node_modules'))
    }

    await timed('node-smoke', () => runNodeSmoke(project))
    await timed('browser-bundle', () => runBrowserBundle(project))
    printFootprint()
  } finally {
    if (!keepScratch) rmSync(scratch, { recursive: true, force: true })
    else console.log(`\nscratch directory kept: ${scratch}`)
  }
}

await main()
report.failures = failures
if (reportPath !== undefined) writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`)
console.log('')
console.log(
  failures.length === 0
    ? 'check-packages: all checks passed'
    : `check-packages: ${failures.length} check(s) failed`,
)
process.exitCode = failures.length === 0 ? 0 : 1
