import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { text } from 'node:stream/consumers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { gcidOf } from './gcid.js'
import { LocalDiskBlobStore } from './local-disk-blob-store.js'

// Only rename is wrapped, so a test can make it fail the way it does across file systems.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>()
  return { ...actual, rename: vi.fn(actual.rename) }
})

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-exdev-'))
  dirs.push(dir)
  return dir
}

afterEach(() => {
  vi.mocked(rename).mockClear()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('LocalDiskBlobStore.adopt across file systems', () => {
  it('copies a staging file it cannot rename (EXDEV) into place and removes it', async () => {
    const root = tempDir()
    const staging = join(tempDir(), 'upload')
    writeFileSync(staging, 'on another volume')
    const gcid = gcidOf(Buffer.from('on another volume'))
    const crossDevice = Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' })
    vi.mocked(rename).mockRejectedValueOnce(crossDevice)

    expect(await new LocalDiskBlobStore(root).adopt(staging, 17, gcid)).toEqual({ gcid, sizeBytes: 17 })

    expect(vi.mocked(rename).mock.calls[0]?.[0]).toBe(staging)
    expect(existsSync(staging)).toBe(false)
    expect(readdirSync(join(root, 'tmp'))).toEqual([])
    expect(await text(await new LocalDiskBlobStore(root).get(gcid))).toBe('on another volume')
  })

  it('passes other rename failures on and keeps the staging file', async () => {
    const root = tempDir()
    const staging = join(tempDir(), 'upload')
    writeFileSync(staging, 'kept')
    vi.mocked(rename).mockRejectedValueOnce(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }))

    await expect(new LocalDiskBlobStore(root).adopt(staging, 4, gcidOf(Buffer.from('kept')))).rejects.toThrow(/EACCES/)
    expect(existsSync(staging)).toBe(true)
  })
})
