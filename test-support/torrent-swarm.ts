import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import bencode from 'bencode'
import { Server } from 'bittorrent-tracker'
import createTorrent from 'create-torrent'

/** One file of a torrent made for a test. `padding` files are zeros marked BEP 47 `attr: p`. */
export interface TestTorrentFile {
  path: string[]
  bytes: Uint8Array
  padding?: boolean
}

export interface TestTorrent {
  /** The .torrent file (announcing to the swarm's tracker). */
  torrentFile: Uint8Array
  infoHash: string
  name: string
  /** A magnet link with the info hash, the name and the tracker. */
  magnet: string
  /** The folder holding the torrent's content, as a seeder reads it (`<dataDir>/<name>`). */
  dataDir: string
  /** What the seeders get: the same torrent (same info hash) announcing to the swarm's tracker only. */
  seedFile: Uint8Array
}

export interface LocalSwarm {
  /** The tracker's announce URL on 127.0.0.1. */
  announceUrl: string
  /**
   * Writes the files, makes a .torrent with create-torrent and returns it; nothing seeds it
   * until `seed`. `single` makes a single-file torrent of the one file; otherwise give at least
   * two files (create-torrent makes a single-file torrent of any one input). `leadingTrackers`
   * come first in the .torrent's announce list and the magnet, and `webSeeds` go in its url-list
   * (the seeders never see either).
   */
  makeTorrent(name: string, files: TestTorrentFile[], options?: { pieceLength?: number; single?: boolean; leadingTrackers?: string[]; webSeeds?: string[] }): Promise<TestTorrent>
  /**
   * Starts an aria2c seeder of the torrent and resolves once the tracker counts it.
   * `uploadBytesPerSecond` caps it, for tests that need a download still running.
   */
  seed(torrent: TestTorrent, options?: { uploadBytesPerSecond?: number }): Promise<void>
  /** Stops the seeders and the tracker and deletes the files. */
  close(): Promise<void>
}

/** Default piece size: small, so a few KiB of test data spans several pieces. */
const TEST_PIECE_BYTES = 16 * 1024
const SEEDER_READY_TIMEOUT_MS = 15_000

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

function makeTorrentBytes(input: Buffer[], options: Parameters<typeof createTorrent>[1]): Promise<Uint8Array> {
  return new Promise((resolve, reject) => createTorrent(input, options, (error, torrent) => (error ? reject(error) : resolve(torrent))))
}

type BencodeDict = { [key: string]: unknown }

/**
 * A BitTorrent swarm on 127.0.0.1: a `bittorrent-tracker` HTTP tracker and aria2c seeders, with
 * DHT, local peer discovery and peer exchange off, so nothing leaves the machine. Needs aria2c
 * on PATH (the CI installs it).
 */
export async function startLocalSwarm(): Promise<LocalSwarm> {
  const root = await mkdtemp(join(tmpdir(), 'cumulus-swarm-'))
  const tracker = new Server({ http: true, udp: false, ws: false, stats: false })
  tracker.on('warning', () => undefined)
  tracker.on('error', () => undefined)
  const port = await freeLoopbackPort()
  await new Promise<void>((resolve) => tracker.listen(port, '127.0.0.1', resolve))
  const announceUrl = `http://127.0.0.1:${port}/announce`
  const seeders: ChildProcess[] = []

  return {
    announceUrl,

    async makeTorrent(name, files, options = {}) {
      const dataDir = await mkdtemp(join(root, 'data-'))
      const single = options.single ?? false
      if (single ? files.length !== 1 : files.length < 2) throw new Error('makeTorrent: a single-file torrent has one file, a folder at least two')
      for (const file of files) {
        const target = single ? join(dataDir, name) : join(dataDir, name, ...file.path)
        await mkdir(dirname(target), { recursive: true })
        await writeFile(target, file.bytes)
      }
      const input = files.map((file) => Object.assign(Buffer.from(file.bytes), { fullPath: single ? name : [name, ...file.path].join('/') }))
      const made = await makeTorrentBytes(input, {
        name,
        pieceLength: options.pieceLength ?? TEST_PIECE_BYTES,
        announceList: [[announceUrl]],
        // `.pad/…` is a hidden path, which create-torrent would drop as junk.
        filterJunkFiles: false,
        createdBy: 'cumulus tests',
        creationDate: 0,
      })
      // create-torrent has no BEP 47 attributes: mark the padding entries, then encode again.
      // The pieces stay valid (a padding file's content is zeros, as written above).
      const decoded = bencode.decode(made) as BencodeDict
      const info = decoded['info'] as BencodeDict
      const entries = info['files'] as BencodeDict[] | undefined
      files.forEach((file, i) => {
        if (file.padding && entries?.[i]) entries[i]['attr'] = 'p'
      })
      const seedFile = bencode.encode(decoded)
      const leading = options.leadingTrackers ?? []
      // The announce list is outside the info dictionary: the info hash stays the same.
      if (leading.length > 0) decoded['announce-list'] = [...leading.map((url) => [url]), [announceUrl]]
      if (leading[0]) decoded['announce'] = leading[0]
      if (options.webSeeds) decoded['url-list'] = options.webSeeds
      const torrentFile = bencode.encode(decoded)
      const infoHash = createHash('sha1').update(bencode.encode(info)).digest('hex')
      const trackers = [...leading, announceUrl].map((url) => `&tr=${encodeURIComponent(url)}`).join('')
      const magnet = `magnet:?xt=urn:btih:${infoHash}&dn=${encodeURIComponent(name)}${trackers}`
      return { torrentFile, infoHash, name, magnet, dataDir, seedFile }
    },

    async seed(torrent, options = {}) {
      const torrentPath = join(root, `${torrent.infoHash}.torrent`)
      await writeFile(torrentPath, torrent.seedFile)
      const listenPort = await freeLoopbackPort()
      const child = spawn(
        'aria2c',
        [
          `--dir=${torrent.dataDir}`,
          '--check-integrity=true',
          '--seed-ratio=0.0',
          '--enable-dht=false',
          '--enable-dht6=false',
          '--bt-enable-lpd=false',
          '--enable-peer-exchange=false',
          `--listen-port=${listenPort}`,
          `--stop-with-process=${process.pid}`,
          '--file-allocation=none',
          '--summary-interval=0',
          '--console-log-level=warn',
          '--quiet=true',
          `--max-overall-upload-limit=${options.uploadBytesPerSecond ?? 0}`,
          torrentPath,
        ],
        { stdio: 'ignore' },
      )
      seeders.push(child)
      const deadline = Date.now() + SEEDER_READY_TIMEOUT_MS
      while ((tracker.torrents[torrent.infoHash]?.complete ?? 0) === 0) {
        if (child.exitCode !== null) throw new Error(`the aria2c seeder exited with code ${child.exitCode}`)
        if (Date.now() > deadline) throw new Error('the aria2c seeder did not announce itself to the tracker')
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },

    async close() {
      await Promise.all(
        seeders.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve()
              child.once('close', () => resolve())
              child.kill('SIGKILL')
            }),
        ),
      )
      await new Promise<void>((resolve) => tracker.close(() => resolve()))
      await rm(root, { recursive: true, force: true })
    },
  }
}
