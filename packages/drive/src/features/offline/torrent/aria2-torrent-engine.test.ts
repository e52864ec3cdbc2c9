import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { startLocalSwarm, type LocalSwarm, type TestTorrent, type TestTorrentFile } from '../../../../../../test-support/torrent-swarm.js'
import { Aria2TorrentEngine, defaultTorrentEngineConfig, type TorrentEngineConfig } from './aria2-torrent-engine.js'
import { TorrentEngineError, everyByteFinished, type TorrentDownload, type TorrentProgress } from './torrent-engine.js'

// A real swarm on 127.0.0.1: a bittorrent-tracker HTTP tracker and aria2c seeders
// (test-support/torrent-swarm.ts); the engine under test runs its own aria2c daemon.

const PIECE_BYTES = 16 * 1024
const PROGRESS_POLL_MS = 100

let swarm: LocalSwarm
let work: string
let engine: Aria2TorrentEngine
let dirCount = 0

function testConfig(overrides: Partial<TorrentEngineConfig> = {}): TorrentEngineConfig {
  return { ...defaultTorrentEngineConfig(join(work, 'aria2')), dht: false, peerExchange: false, localPeerDiscovery: false, metadataTimeoutMs: 10_000, ...overrides }
}

function newDir(): string {
  return join(work, `job-${++dirCount}`)
}

/** Polls progress until done (or `until` holds); the test's own timeout bounds it. */
async function waitFor(download: TorrentDownload, until: (progress: TorrentProgress) => boolean = (p) => p.done): Promise<TorrentProgress> {
  for (;;) {
    const progress = await download.progress()
    if (until(progress)) return progress
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS))
  }
}

function bytes(size: number): Uint8Array {
  return new Uint8Array(randomBytes(size))
}

/**
 * album/ with a.bin (20,000 bytes), a BEP 47 padding file that fills a.bin's last piece, and
 * b/c.txt, which therefore starts on a piece boundary.
 */
function albumFiles(): TestTorrentFile[] {
  const first = 20_000
  const pad = 2 * PIECE_BYTES - first
  return [
    { path: ['a.bin'], bytes: bytes(first) },
    { path: ['.pad', String(pad)], bytes: new Uint8Array(pad), padding: true },
    { path: ['b', 'c.txt'], bytes: bytes(5_000) },
  ]
}

beforeAll(async () => {
  swarm = await startLocalSwarm()
  work = await mkdtemp(join(tmpdir(), 'cumulus-torrent-'))
  engine = new Aria2TorrentEngine(testConfig())
})

afterAll(async () => {
  await engine?.close()
  await swarm?.close()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('Aria2TorrentEngine on a local swarm', () => {
  let album: TestTorrent
  let albumFileList: TestTorrentFile[]

  beforeAll(async () => {
    albumFileList = albumFiles()
    album = await swarm.makeTorrent('album', albumFileList)
    await swarm.seed(album)
  })

  it('reads the name, sizes and file tree of a .torrent, padding marked, without aria2', async () => {
    const offline = new Aria2TorrentEngine(testConfig({ aria2cPath: join(work, 'no-such-aria2c') }))
    const meta = await offline.inspect(album.torrentFile, { timeoutMs: 1_000 })
    expect(meta).toEqual({
      infoHash: album.infoHash,
      name: 'album',
      multiFile: true,
      files: [
        { index: 1, path: ['a.bin'], sizeBytes: 20_000, padding: false },
        { index: 2, path: ['.pad', String(2 * PIECE_BYTES - 20_000)], sizeBytes: 2 * PIECE_BYTES - 20_000, padding: true },
        { index: 3, path: ['b', 'c.txt'], sizeBytes: 5_000, padding: false },
      ],
      totalBytes: 25_000,
      trackers: [swarm.announceUrl],
      // The info dictionary and the trackers only (no web seeds, nodes, comments).
      torrentFile: expect.any(Uint8Array),
    })
    await offline.close()
  })

  it('downloads a multi-file torrent into one folder named after it and leaves no padding file', async () => {
    const dir = newDir()
    const download = await engine.start(album.torrentFile, { dir })
    onTestFinished(() => download.stop())
    const progress = await waitFor(download)
    expect(progress).toMatchObject({ done: true, downloadedBytes: 25_000, totalBytes: 25_000 })
    const files = await download.files()
    expect(files.map(({ index, path, sizeBytes, localPath }) => ({ index, path, sizeBytes, localPath }))).toEqual([
      { index: 1, path: ['a.bin'], sizeBytes: 20_000, localPath: join(dir, 'album', 'a.bin') },
      { index: 3, path: ['b', 'c.txt'], sizeBytes: 5_000, localPath: join(dir, 'album', 'b', 'c.txt') },
    ])
    expect(await readFile(join(dir, 'album', 'a.bin'))).toEqual(Buffer.from(albumFileList[0]!.bytes))
    expect(await readFile(join(dir, 'album', 'b', 'c.txt'))).toEqual(Buffer.from(albumFileList[2]!.bytes))
    expect(await readdir(dir)).toEqual(['album'])
    expect((await readdir(join(dir, 'album'))).sort()).toEqual(['a.bin', 'b'])
  })

  it('fetches only the files the user picked', async () => {
    const dir = newDir()
    const download = await engine.start(album.torrentFile, { dir, selectedIndexes: [3] })
    onTestFinished(() => download.stop())
    expect(await waitFor(download)).toMatchObject({ done: true, downloadedBytes: 5_000, totalBytes: 5_000 })
    expect(await readFile(join(dir, 'album', 'b', 'c.txt'))).toEqual(Buffer.from(albumFileList[2]!.bytes))
    expect(existsSync(join(dir, 'album', 'a.bin'))).toBe(false)
  })

  it('downloads a single-file torrent as that file', async () => {
    const content = bytes(40_000)
    const single = await swarm.makeTorrent('notes.bin', [{ path: ['notes.bin'], bytes: content }], { single: true })
    await swarm.seed(single)
    const meta = await engine.inspect(single.torrentFile, { timeoutMs: 1_000 })
    expect(meta).toMatchObject({ name: 'notes.bin', multiFile: false, files: [{ index: 1, path: ['notes.bin'], sizeBytes: 40_000, padding: false }], totalBytes: 40_000 })
    const dir = newDir()
    const download = await engine.start(single.torrentFile, { dir })
    onTestFinished(() => download.stop())
    await waitFor(download)
    expect(await download.files()).toEqual([{ index: 1, path: ['notes.bin'], sizeBytes: 40_000, localPath: join(dir, 'notes.bin') }])
    expect(await readFile(join(dir, 'notes.bin'))).toEqual(Buffer.from(content))
    expect(await readdir(dir)).toEqual(['notes.bin'])
  })

  it('fetches a magnet link\'s metadata from the swarm, then its files', async () => {
    const meta = await engine.inspect(album.magnet, { timeoutMs: 10_000 })
    expect(meta).toMatchObject({ infoHash: album.infoHash, name: 'album', totalBytes: 25_000 })
    expect(meta.files.map((file) => [file.path, file.padding])).toEqual([
      [['a.bin'], false],
      [['.pad', String(2 * PIECE_BYTES - 20_000)], true],
      [['b', 'c.txt'], false],
    ])
    const dir = newDir()
    const download = await engine.start(album.magnet, { dir })
    onTestFinished(() => download.stop())
    await waitFor(download)
    expect(await readFile(join(dir, 'album', 'a.bin'))).toEqual(Buffer.from(albumFileList[0]!.bytes))
  })

  it('gives up on a dead magnet after the timeout, saying why', async () => {
    const dead = `magnet:?xt=urn:btih:${randomBytes(20).toString('hex')}&dn=gone&tr=${encodeURIComponent(swarm.announceUrl)}`
    const started = Date.now()
    const error = await engine.inspect(dead, { timeoutMs: 2_000 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TorrentEngineError)
    expect(error).toMatchObject({ code: 'metadata_timeout', message: expect.stringMatching(/^No peer sent the metadata of magnet [0-9a-f]{40} within 2 s/) })
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('refuses a selection outside the torrent', async () => {
    await expect(engine.start(album.torrentFile, { dir: newDir(), selectedIndexes: [4] })).rejects.toMatchObject({ code: 'invalid_selection' })
  })
})

describe('Aria2TorrentEngine across restarts and cancels', () => {
  /** The engines that must be caught mid-download fetch at this rate. */
  const SLOW_BYTES_PER_SECOND = 256 * 1024
  let big: TestTorrent
  let content: Uint8Array

  beforeAll(async () => {
    content = bytes(768 * 1024)
    big = await swarm.makeTorrent('big.bin', [{ path: ['big.bin'], bytes: content }], { single: true, pieceLength: 64 * 1024 })
    await swarm.seed(big)
  })

  it('continues from the data on disk after the engine process restarts', async () => {
    const dir = newDir()
    const first = new Aria2TorrentEngine(testConfig({ maxDownloadBytesPerSecond: SLOW_BYTES_PER_SECOND }))
    const download = await first.start(big.torrentFile, { dir })
    const partial = await waitFor(download, (p) => p.downloadedBytes >= 128 * 1024)
    expect(partial.done).toBe(false)
    await first.close()

    const second = new Aria2TorrentEngine(testConfig())
    try {
      const resumed = await second.start(big.torrentFile, { dir })
      // The first figure after the re-check already counts what the first engine fetched.
      const checked = await waitFor(resumed, (p) => !p.checking)
      expect(checked.downloadedBytes).toBeGreaterThanOrEqual(128 * 1024)
      await waitFor(resumed)
      expect(await readFile(join(dir, 'big.bin'))).toEqual(Buffer.from(content))
      await resumed.stop()
    } finally {
      await second.close()
    }
  })

  it('reports the bytes that are final on disk while the download runs, and the files as soon as every byte is', async () => {
    const dir = newDir()
    const slow = new Aria2TorrentEngine(testConfig({ maxDownloadBytesPerSecond: SLOW_BYTES_PER_SECOND }))
    onTestFinished(() => slow.close())
    const download = await slow.start(big.torrentFile, { dir })
    await expect(download.files()).rejects.toMatchObject({ code: 'not_running' })
    let partial = 0
    for (;;) {
      const [part, ...others] = await download.fileProgress()
      expect(others).toEqual([])
      expect(part).toMatchObject({ index: 1, sizeBytes: content.length, localPath: join(dir, 'big.bin') })
      // Whatever is reported finished is already the torrent's content on disk (no write cache in between).
      const onDisk = part!.finished.length > 0 ? await readFile(part!.localPath) : Buffer.alloc(0)
      for (const [start, end] of part!.finished) expect(onDisk.subarray(start, end).equals(Buffer.from(content.subarray(start, end)))).toBe(true)
      if (everyByteFinished([part!])) break
      if (part!.finished.length > 0) partial++
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(partial).toBeGreaterThan(0)
    expect(await download.files()).toEqual([{ index: 1, path: ['big.bin'], sizeBytes: content.length, localPath: join(dir, 'big.bin') }])
    await download.stop()
  })

  it('deletes the partial data when a download is removed', async () => {
    const dir = newDir()
    const slow = new Aria2TorrentEngine(testConfig({ maxDownloadBytesPerSecond: SLOW_BYTES_PER_SECOND }))
    onTestFinished(() => slow.close())
    const download = await slow.start(big.torrentFile, { dir })
    await waitFor(download, (p) => p.downloadedBytes > 0)
    await download.remove()
    expect(await readdir(dir)).toEqual([])
    await expect(download.progress()).rejects.toMatchObject({ code: 'not_running' })
  })

  it('reports a crashed aria2 and resumes when started again', async () => {
    const dir = newDir()
    const crashy = new Aria2TorrentEngine(testConfig({ maxDownloadBytesPerSecond: SLOW_BYTES_PER_SECOND }))
    try {
      const download = await crashy.start(big.torrentFile, { dir })
      await waitFor(download, (p) => p.downloadedBytes > 0)
      const daemon = await crashy.requireDaemon()
      process.kill(daemon.pid!, 'SIGKILL')
      await expect(waitFor(download)).rejects.toMatchObject({ code: 'engine_failed', message: expect.stringContaining('aria2 exited (SIGKILL)') })
      const again = await crashy.start(big.torrentFile, { dir })
      await waitFor(again)
      expect(await readFile(join(dir, 'big.bin'))).toEqual(Buffer.from(content))
    } finally {
      await crashy.close()
    }
  })
})

describe('Aria2TorrentEngine without aria2', () => {
  it('says exactly what to install', async () => {
    const missing = new Aria2TorrentEngine(testConfig({ aria2cPath: join(tmpdir(), 'no-such-dir', 'aria2c') }))
    const magnet = `magnet:?xt=urn:btih:${'a'.repeat(40)}`
    for (const attempt of [missing.inspect(magnet, { timeoutMs: 1_000 }), missing.start(magnet, { dir: join(tmpdir(), 'unused') })]) {
      await expect(attempt).rejects.toMatchObject({ code: 'engine_unavailable', message: expect.stringContaining('apt-get install aria2') })
    }
    await missing.close()
  })
})
