import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ArchiveEntry } from './archive-listing.js'
import { archiveTree } from './archive-tree.js'
import { folderNameOf } from './start-decompress.js'
import { findNode, planUnpack } from './unpack-plan.js'

const entry = (name: string, sizeBytes = 10, extra: Partial<ArchiveEntry> = {}): ArchiveEntry => ({ name, isDirectory: false, isLink: false, encrypted: false, sizeBytes, packedBytes: 1, ...extra })
const roomy = { freeBytes: 1e12, maxUnpackBytes: 1e12, maxRatio: 1e6, archiveBytes: 1000 }

describe('planUnpack', () => {
  const entries = [entry('a/b/c.txt', 5), entry('a/d.txt', 7), entry('e/', 0, { isDirectory: true }), entry('top.txt', 3), entry('link', 0, { isLink: true })]
  const tree = archiveTree(entries)

  it('takes everything (links left out), with every folder on the way and the empty ones', () => {
    const plan = planUnpack(entries, tree, [], roomy)
    expect(plan.ok && plan.files.map((f) => [f.path, f.entry.name]).sort()).toEqual([['a/b/c.txt', 'a/b/c.txt'], ['a/d.txt', 'a/d.txt'], ['top.txt', 'top.txt']])
    expect(plan.ok && plan.folders).toEqual(['a', 'e', 'a/b'])
    expect(plan.ok && plan.totalBytes).toBe(15)
  })

  it('takes a chosen folder at its place in the archive, with the folders above it', () => {
    const plan = planUnpack(entries, tree, ['a/b'], roomy)
    expect(plan.ok && plan.files.map((f) => f.path)).toEqual(['a/b/c.txt'])
    expect(plan.ok && plan.folders).toEqual(['a', 'a/b'])
  })

  it('refuses what does not fit before anything is written', () => {
    expect(planUnpack(entries, tree, [], { ...roomy, freeBytes: 14 })).toMatchObject({ ok: false, status: 'NEED_MORE_QUOTA' })
    expect(planUnpack(entries, tree, [], { ...roomy, maxUnpackBytes: 14 })).toMatchObject({ ok: false, status: 'FILE_TOO_LARGE' })
    // The ratio: 2 GiB declared by a 1 KiB archive, past 1000 times its size.
    const bomb = [entry('zeros.bin', 2 ** 31)]
    expect(planUnpack(bomb, archiveTree(bomb), [], { ...roomy, maxRatio: 1000, archiveBytes: 1024 })).toMatchObject({ ok: false, status: 'FILE_TOO_LARGE' })
  })

  it('finds files and folders by path, and nothing else', () => {
    expect(findNode(tree, 'a/d.txt')?.isFolder).toBe(false)
    expect(findNode(tree, 'a/b')?.isFolder).toBe(true)
    expect(findNode(tree, 'a/d.txt/x')).toBeNull()
    expect(findNode(tree, 'link')).toBeNull()
  })

  it('lands every file of any hostile name set inside the target, each at a distinct path of clean segments', () => {
    const hostile = fc.oneof(fc.constantFrom('..', '.', '', '/', '\\', 'C:', '\u0000', '\u202e', 'a', 'b', '中文', 'x.txt'), fc.string({ maxLength: 6 }))
    const name = fc.array(hostile, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(fc.sample(fc.constantFrom('/', '\\'), 1)[0]))
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.boolean(), fc.nat(1000)), { maxLength: 30 }), (raw) => {
        const list = raw.map(([n, isDirectory, size]) => entry(n, size, { isDirectory }))
        const plan = planUnpack(list, archiveTree(list), [], roomy)
        if (!plan.ok) return false
        const paths = plan.files.map((f) => f.path)
        expect(new Set(paths).size).toBe(paths.length)
        for (const path of [...paths, ...plan.folders]) {
          for (const segment of path.split('/')) {
            expect(segment).not.toMatch(/^\.{0,2}$/)
            expect(segment).not.toMatch(/[\\\u0000-\u001f\u202a-\u202e]/)
          }
        }
        // Every file's folders are made first.
        for (const path of paths) {
          const parts = path.split('/')
          for (let depth = 1; depth < parts.length; depth++) expect(plan.folders).toContain(parts.slice(0, depth).join('/'))
        }
        return true
      }),
      { numRuns: 300 },
    )
  })
})

describe('folderNameOf', () => {
  it.each([
    ['photos.zip', 'photos'],
    ['photos.tar.gz', 'photos'],
    ['Backup.TAR.ZST', 'Backup'],
    ['film.part1.rar', 'film'],
    ['film.part2.rar', 'film'],
    ['notes.txt.gz', 'notes.txt'],
    ['.zip', '.zip'],
    ['archive', 'archive'],
  ])('%s unpacks into %s', (name, folder) => {
    expect(folderNameOf(name)).toBe(folder)
  })
})
