import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { getPriority, tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { GCID_MIN_BLOCK_BYTES, gcidBlockSize, gcidOf, gcidOfFile } from './gcid.js'
import { GcidWorker } from './gcid-worker.js'

describe('GcidWorker', () => {
  let dir: string
  let hasher: GcidWorker
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cumulus-idle-gcid-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  afterEach(async () => {
    await hasher?.close()
  })

  const withFile = async <T>(name: string, content: Uint8Array, use: (fd: number, path: string) => Promise<T>): Promise<T> => {
    const path = join(dir, name)
    writeFileSync(path, content)
    const fd = openSync(path, 'r')
    try {
      return await use(fd, path)
    } finally {
      closeSync(fd)
    }
  }

  it('gives the GCID of gcid.ts for any content, by descriptor and by path', async () => {
    hasher = new GcidWorker({ idle: true })
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        // Around the block edges (one block, one byte past it) as well as anywhere below three blocks.
        fc.oneof(fc.nat({ max: 3 * GCID_MIN_BLOCK_BYTES }), fc.constantFrom(0, 1, GCID_MIN_BLOCK_BYTES - 1, GCID_MIN_BLOCK_BYTES, GCID_MIN_BLOCK_BYTES + 1)),
        fc.integer({ min: 0, max: 255 }),
        async (size, seed) => {
          const content = Buffer.alloc(size)
          for (let i = 0; i < size; i++) content[i] = (i * 31 + seed) & 0xff
          await withFile(`p${n++}.bin`, content, async (fd, path) => {
            expect(await hasher.hash(fd, size)).toBe(gcidOf(content))
            expect(await hasher.hashPath(path, size)).toBe(gcidOf(content))
          })
        },
      ),
      { numRuns: 40 },
    )
  })

  it('takes the block size from gcid.ts where it doubles (a sparse file past 128 MiB)', async () => {
    hasher = new GcidWorker({ idle: true })
    const path = join(dir, 'sparse.bin')
    const size = 512 * GCID_MIN_BLOCK_BYTES + 4096
    writeFileSync(path, 'not only zeros')
    truncateSync(path, size)
    expect(gcidBlockSize(size)).toBe(2 * GCID_MIN_BLOCK_BYTES)
    expect(await hasher.hashPath(path, size)).toBe(await gcidOfFile(path, size))
    rmSync(path)
  })

  it('lowers its own thread to nice 19 when idle, and leaves the rest of the process as it was', async () => {
    // Field 19 of /proc/<pid>/task/<tid>/stat (after the command name in parentheses) is the nice value.
    const niceOf = (tid: string) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      return Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[16])
    }
    const atNineteen = () => readdirSync('/proc/self/task').map(niceOf).filter((v) => v === 19).length
    const before = atNineteen()
    const ours = getPriority()
    hasher = new GcidWorker({ idle: true })
    expect(await hasher.niced()).toBe(true)
    expect(atNineteen()).toBe(before + 1)
    expect(getPriority()).toBe(ours)
    const normal = new GcidWorker({ idle: false })
    try {
      expect(await normal.niced()).toBe(false)
      expect(atNineteen()).toBe(before + 1)
    } finally {
      await normal.close()
    }
  })

  it('refuses a link, a file of another size, and a missing file, and goes on hashing after', async () => {
    hasher = new GcidWorker({ idle: true })
    const target = join(dir, 'target.bin')
    writeFileSync(target, 'linked to')
    const link = join(dir, 'link.bin')
    symlinkSync(target, link)
    await expect(hasher.hashPath(link, 9)).rejects.toThrow(/ELOOP/)
    await expect(hasher.hashPath(target, 10)).rejects.toThrow(/not the size expected/)
    await expect(hasher.hashPath(join(dir, 'absent.bin'), 1)).rejects.toThrow(/ENOENT/)
    // A descriptor shorter than the size asked for.
    await withFile('short.bin', Buffer.from('short'), async (fd) => {
      await expect(hasher.hash(fd, 6)).rejects.toThrow(/ended early/)
    })
    expect(await hasher.hashPath(target, 9)).toBe(gcidOf(Buffer.from('linked to')))
  })

  it('refuses what is pending and what comes after close', async () => {
    hasher = new GcidWorker({ idle: true })
    const path = join(dir, 'big.bin')
    writeFileSync(path, 'x')
    truncateSync(path, 64 * 1024 * 1024)
    const pending = hasher.hashPath(path, 64 * 1024 * 1024)
    // Twice at once (an abort, then the run's own close): both wait for the same end.
    await Promise.all([hasher.close(), hasher.close()])
    await expect(pending).rejects.toThrow(/closed|stopped/)
    await expect(hasher.hashPath(path, 1)).rejects.toThrow(/closed/)
  })
})
