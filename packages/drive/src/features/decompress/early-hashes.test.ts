import { mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { gcidOfFile } from '../../blobs/gcid.js'
import { EarlyHashes } from './early-hashes.js'

const MiB = 1024 * 1024

describe('EarlyHashes', () => {
  let dir: string
  let early: EarlyHashes
  const past = new Date('2020-01-01T00:00:00Z')
  /** A file as the tool leaves it: written, then given the archive's (past) time. */
  const finished = (name: string, fill: number, size = 2 * MiB) => {
    const path = join(dir, name)
    writeFileSync(path, Buffer.alloc(size, fill))
    utimesSync(path, past, past)
    return path
  }
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cumulus-early-'))
    early = new EarlyHashes(dir, Date.now(), new AbortController().signal)
  })
  afterEach(async () => {
    await early.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('gives the GCID of a finished file the walk finds unchanged', async () => {
    const path = finished('a.bin', 1)
    early.offer(path)
    await early.settle()
    expect(await early.take(path)).toBe(await gcidOfFile(path, 2 * MiB))
  })

  it('never trusts a file written again under the same name, size and time (a name the archive gives twice)', async () => {
    const path = finished('a.bin', 1)
    early.offer(path)
    await early.settle()
    unlinkSync(path)
    finished('a.bin', 2)
    expect(await early.take(path)).toBeNull()
  })

  it('never trusts a file changed in place after its hash, even with its time put back', async () => {
    const path = finished('a.bin', 1)
    early.offer(path)
    await early.settle()
    writeFileSync(path, Buffer.alloc(2 * MiB, 3))
    utimesSync(path, past, past)
    expect(await early.take(path)).toBeNull()
  })

  it('leaves for the walk: a name offered twice, a file whose time is not set yet, a small file, a link, a path outside', async () => {
    const twice = finished('twice.bin', 1)
    early.offer(twice)
    early.offer(twice)
    const fresh = join(dir, 'fresh.bin')
    writeFileSync(fresh, Buffer.alloc(2 * MiB, 1))
    early.offer(fresh)
    const small = finished('small.bin', 1, 1000)
    early.offer(small)
    const link = join(dir, 'link.bin')
    symlinkSync(finished('target.bin', 4), link)
    early.offer(link)
    const outside = join(tmpdir(), 'elsewhere.bin')
    early.offer(outside)
    await early.settle()
    for (const path of [twice, fresh, small, link, outside]) expect(await early.take(path)).toBeNull()
  })
  it('asks, for each file it hashed while the tool ran, whether to flush it ahead, by its GCID', async () => {
    const asked: string[] = []
    const withPolicy = new EarlyHashes(dir, Date.now(), new AbortController().signal, async (gcid) => {
      asked.push(gcid)
      return gcid.startsWith('0')
    })
    try {
      const a = finished('a.bin', 1)
      const b = finished('b.bin', 2)
      withPolicy.offer(a)
      withPolicy.offer(b)
      // Asked only while the tool runs (before settle): after it the store flushes what is left itself.
      await vi.waitFor(() => expect(asked).toHaveLength(2))
      await withPolicy.settle()
      expect(asked).toEqual([await gcidOfFile(a, 2 * MiB), await gcidOfFile(b, 2 * MiB)])
      // Whatever the answer, the hashes stand.
      expect(await withPolicy.take(b)).toBe(asked[1])
    } finally {
      await withPolicy.close()
    }
  })

  it('hashes a file it left on its worker, for the walk, and refuses a link there', async () => {
    const small = finished('small.bin', 5, 1000)
    expect(await early.hashLeft(small, 1000)).toBe(await gcidOfFile(small, 1000))
    const link = join(dir, 'link.bin')
    symlinkSync(small, link)
    await expect(early.hashLeft(link, 1000)).rejects.toThrow(/ELOOP/)
  })

  it('stops hashing when the run is stopped', async () => {
    const controller = new AbortController()
    const stopped = new EarlyHashes(dir, Date.now(), controller.signal)
    const path = finished('a.bin', 1)
    controller.abort()
    await expect(stopped.hashLeft(path, 2 * MiB)).rejects.toThrow(/closed/)
    await stopped.close()
  })
})
