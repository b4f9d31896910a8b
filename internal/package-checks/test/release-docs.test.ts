/**
 * The release facts the docs state agree with the repository: how many packages release
 * together (the changesets `fixed` group), and which version they are at (every published
 * package's `package.json`, its CHANGELOG, and so `fhir-auth --version`).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')

interface Manifest {
  readonly name: string
  readonly version: string
  readonly private?: boolean
}

const published = readdirSync(join(root, 'packages'))
  .map((directory) => ({
    directory,
    manifest: JSON.parse(read(`packages/${directory}/package.json`)) as Manifest,
  }))
  .filter(({ manifest }) => manifest.private !== true)

const numberWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']

describe('the packages that release together', () => {
  it('are every published package, in one fixed group', () => {
    const config = JSON.parse(read('.changeset/config.json')) as { fixed: string[][] }
    expect(config.fixed).toHaveLength(1)
    expect([...(config.fixed[0] ?? [])].sort()).toEqual(
      published.map(({ manifest }) => manifest.name).sort(),
    )
  })

  it.each(['README.md', '.changeset/README.md', 'docs/adr/0001-packages-and-boundaries.md'])(
    '%s gives their number right',
    (path) => {
      const count = numberWords[published.length] ?? String(published.length)
      const text = read(path).replace(/\s+/g, ' ')
      expect(text.toLowerCase()).toContain(`${count} published`)
      for (const word of numberWords.filter((word) => word !== count)) {
        expect(text.toLowerCase()).not.toMatch(new RegExp(`\\b${word} (published )?packages`))
      }
    },
  )
})

describe('the version', () => {
  it('is one version for every published package, the one its CHANGELOG released last', () => {
    const versions = new Set(published.map(({ manifest }) => manifest.version))
    expect(versions.size).toBe(1)
    for (const { directory, manifest } of published) {
      const latest = /^## (\d+\.\d+\.\d+)$/m.exec(read(`packages/${directory}/CHANGELOG.md`))
      expect(latest?.[1], directory).toBe(manifest.version)
    }
  })

  it('is the 0.4 line or later, as the docs say (fhir-auth --version prints it)', () => {
    const cli = published.find(({ directory }) => directory === 'cli')
    const [major = 0, minor = 0] = (cli?.manifest.version ?? '0.0.0').split('.').map(Number)
    expect(major > 0 || minor >= 4).toBe(true)
  })
})

describe('docs/adr/README.md', () => {
  it('lists every ADR', () => {
    const index = read('docs/adr/README.md')
    const records = readdirSync(join(root, 'docs', 'adr')).filter((name) =>
      /^\d{4}-.*\.md$/.test(name),
    )
    expect(records.length).toBeGreaterThan(0)
    for (const record of records) expect(index, record).toContain(`(${record})`)
  })
})
