import { afterAll, describe, expect, it } from 'vitest'
import { TorrentReader, TorrentReadStopped } from './torrent-reader.js'
import { readTorrentMeta } from './torrent-source.js'

/** A bencoded multi-file torrent of `files` one-byte files (made-up piece hashes: never downloaded). */
function torrentOf(files: number): Uint8Array {
  const list = Array.from({ length: files }, (_, i) => `d6:lengthi1e4:pathl${String(i).length + 1}:f${i}ee`).join('')
  const pieces = Math.ceil(files / 16384) * 20
  return Buffer.concat([Buffer.from(`d4:infod5:filesl${list}e4:name4:many12:piece lengthi16384e6:pieces${pieces}:`), Buffer.alloc(pieces, 7), Buffer.from('ee')])
}

describe('TorrentReader', () => {
  const readers: TorrentReader[] = []
  const reader = (options: ConstructorParameters<typeof TorrentReader>[0]) => {
    const made = new TorrentReader(options)
    readers.push(made)
    return made
  }
  afterAll(() => Promise.all(readers.map((r) => r.close())))

  it('decodes a large torrent off the event loop: the loop keeps turning meanwhile', async () => {
    // parse-torrent loaded first, so that only the decoding is left to watch.
    await readTorrentMeta(torrentOf(2))
    const big = torrentOf(40_000)
    let turns = 0
    let reading = true
    const turn = () => {
      turns++
      if (reading) setImmediate(turn)
    }
    setImmediate(turn)
    const meta = await readTorrentMeta(big)
    reading = false
    expect(meta.files).toHaveLength(40_000)
    expect(meta.files[39_999]).toEqual({ index: 40_000, path: ['f39999'], sizeBytes: 1, padding: false })
    expect(meta.totalBytes).toBe(40_000)
    // Decoded on the event loop (before torrent-reader.ts), the 40,000 entries held it 590 ms
    // and left it no turn at all.
    expect(turns).toBeGreaterThan(100)
  })

  it('answers many reads at once, each with its own torrent', async () => {
    const shared = reader({ readers: 2 })
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) => shared.read(torrentOf(i + 1), 50_000)))
    expect(results.map((r) => (r.ok ? r.torrent.files.length : -1))).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('ends a read that takes more memory than a worker may, and reads the next on a fresh worker', async () => {
    const small = reader({ heapMb: 16 })
    const refused = await small.read(torrentOf(100_000), 1_000_000).catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(TorrentReadStopped)
    expect((refused as TorrentReadStopped).reason).toBe('memory')
    const next = await small.read(torrentOf(3), 50_000)
    expect(next.ok && next.torrent.files.length).toBe(3)
  })

  it('ends a read that runs past its time, and reads the next on a fresh worker', async () => {
    const hasty = reader({ timeoutMs: 1 })
    const refused = await hasty.read(torrentOf(10_000), 50_000).catch((err: unknown) => err)
    expect((refused as TorrentReadStopped).reason).toBe('timeout')
    const patient = reader({})
    const next = await patient.read(torrentOf(3), 50_000)
    expect(next.ok && next.torrent.files.length).toBe(3)
  })

  it('says why a torrent is refused, in the reply, without ending the worker', async () => {
    const one = reader({ readers: 1 })
    expect(await one.read(Buffer.from('not bencode'), 50_000)).toEqual({ ok: false, message: expect.stringContaining('could not be read') })
    expect(await one.read(torrentOf(5), 4)).toEqual({ ok: false, message: expect.stringContaining('more than 4 files') })
    // An empty path: parse-torrent takes it, a download could not name the file.
    const bad = Buffer.from('d4:infod5:filesld6:lengthi1e4:pathleee4:name4:many12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee')
    expect(await one.read(bad, 50_000)).toEqual({ ok: false, message: expect.stringContaining('entry 1 has no path') })
    const fine = await one.read(torrentOf(2), 50_000)
    expect(fine.ok).toBe(true)
  })
})
