import { describe, expect, it } from 'vitest'
import { fullCollection } from '../../../../../test-support/full-collection.js'
import type { ArchiveEntry } from './archive-listing.js'
import { archiveTree, levelEntries, nodeAt } from './archive-tree.js'

const file = (name: string, sizeBytes: number): ArchiveEntry => ({ name, sizeBytes, packedBytes: sizeBytes, isDirectory: false, isLink: false, encrypted: false })
const folder = (name: string): ArchiveEntry => ({ ...file(name, 0), isDirectory: true })

describe('archiveTree', () => {
  const tree = archiveTree([
    file('b/file10.txt', 10),
    file('b/file2.txt', 2),
    folder('a/'),
    file('readme.md', 5),
    file('b/deep/x.bin', 100),
    { ...file('link', 0), isLink: true },
    file('../../escape.txt', 7),
    file('C:\\win\\evil.txt', 3),
  ])

  it('lists one level, folders first, natural order, with the sizes folders hold', () => {
    expect(levelEntries(tree, '').map((e) => [e.kind, e.filename, e.filesize, e.path])).toEqual([
      ['drive#folder', 'a', '0', 'a'],
      ['drive#folder', 'b', '112', 'b'],
      ['drive#folder', 'win', '3', 'win'],
      ['drive#file', 'escape.txt', '7', 'escape.txt'],
      ['drive#file', 'readme.md', '5', 'readme.md'],
    ])
    expect(levelEntries(nodeAt(tree, 'b')!, 'b').map((e) => [e.filename, e.path])).toEqual([
      ['deep', 'b/deep'],
      ['file2.txt', 'b/file2.txt'],
      ['file10.txt', 'b/file10.txt'],
    ])
  })

  it('makes the folders entries imply, and leaves links out', () => {
    expect(nodeAt(tree, 'b/deep')?.sizeBytes).toBe(100)
    expect(nodeAt(tree, 'link')).toBeNull()
    expect(nodeAt(tree, 'nope')).toBeNull()
    expect(nodeAt(tree, 'readme.md')).toBeNull()
  })

  it('leaves out names deeper or longer than any real archive holds, quickly', () => {
    const deep = archiveTree([file(`${'d/'.repeat(20_000)}x.txt`, 1), file(`${'a'.repeat(5000)}.txt`, 1), file('ok.txt', 1)])
    expect(levelEntries(deep, '').map((e) => e.filename)).toEqual(['ok.txt'])
  })

  it('holds each name once, not every prefix of every path (deep crafted names cost linear memory)', () => {
    // 300 names 128 levels deep, 30 characters a level: 1.1 M characters of names. With every
    // node keeping its full path, the tree held 75 M characters (one gigabyte for 3,000 such names).
    const level = (i: number, depth: number) => `${String(i).padStart(4, '0')}-${String(depth).padStart(3, '0')}-`.padEnd(30, 'x')
    const entries = Array.from({ length: 300 }, (_, i) => file(Array.from({ length: 128 }, (_, depth) => level(i, depth)).join('/'), 1))
    const gc = fullCollection()
    gc()
    const before = process.memoryUsage().heapUsed
    const deep = archiveTree(entries)
    gc()
    const held = process.memoryUsage().heapUsed - before
    expect(levelEntries(deep, '')).toHaveLength(300)
    expect(held).toBeLessThan(24 * 1024 * 1024)
  })

  it('gives files their type', () => {
    expect(levelEntries(tree, '').find((e) => e.filename === 'readme.md')?.mime_type).toMatch(/markdown|text/)
  })
})
