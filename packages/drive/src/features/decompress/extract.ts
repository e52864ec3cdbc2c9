import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import type { Dir, Dirent } from 'node:fs'
import { lstat, mkdir, opendir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ToolMissing } from '../../lib/tools.js'
import { type ArchiveFormat, codePageArgs } from './archive-listing.js'
import { startUnrar, unrarFailureOf } from './unrar.js'
import type { ZipNameEncoding } from './zip-names.js'

/**
 * Unpacking an archive into a private staging folder with the well-kept tools of decision 028:
 * `7zz x` (zip, 7z, tar, the compressors; a compressed tar through `7zz e -so | 7zz x -si`) and
 * The Unarchiver's `unar` (RAR; an encrypted RAR goes to unrar, unrar.ts, with the same limits).
 * The tools run as child processes under `nice`, so a CPU-heavy
 * archive never holds the event loop, and under `prlimit --fsize`, so no file grows past the
 * largest the archive declares (the kernel stops the tool with SIGXFSZ). While they run, the
 * staging folder's bytes are counted: past the declared total the tool is stopped. Their output
 * is staging only: the caller walks it with lstat and takes regular files alone.
 */

export interface ExtractTools {
  sevenZipPath: string
  unarPath: string
}

export interface ExtractInput {
  archivePath: string
  /** What the file is (sniffFormat) and what the listing read in it ('tar' inside a gzip: a compressed tar). */
  container: ArchiveFormat
  listedFormat: ArchiveFormat
  password: string
  zipEncoding: ZipNameEncoding | null
  outDir: string
  /** Entries to unpack by their names (7zz; a legacy zip name as its stored bytes), or null for all. */
  names: (string | Buffer)[] | null
  /** Entries never to create (links), likewise. */
  excluded: (string | Buffer)[]
  /** A compressed single file (.gz, .bz2, .xz, .zst): where its one stream is written. */
  singleTarget?: string
  /** RAR: the lsar indexes of the entries to unpack, or null for all. */
  rarIndexes: number[] | null
  /** A RAR with encryption: unpacked by unrar (unrar.ts), the entries chosen by `names`. */
  rarEngine?: 'unrar'
  /** No one file may grow past this (the largest declared entry). */
  maxFileBytes: number
  /** The staging folder may not hold more than this (the declared total, and a little). */
  maxTotalBytes: number
  onBytes?: (bytes: number) => void
  /**
   * 7zz: the path (under outDir) of each file the tool has finished, as it moves to the next
   * (its `-bb1` lines, line-buffered by stdbuf), so the caller may hash it while the rest is
   * unpacked. A hint only, and a name the archive controls: early-hashes.ts trusts nothing of it.
   */
  onFileWritten?: (path: string) => void
  signal: AbortSignal
}

export type ExtractFailure = 'damaged' | 'wrong_password' | 'overrun'

export class ExtractFailed extends Error {
  override readonly name = 'ExtractFailed'
  constructor(
    readonly reason: ExtractFailure,
    message: string,
  ) {
    super(message)
  }
}

/** Counting the staging folder: at most this often, and never more than a tenth of the time. */
const POLL_MIN_MS = 500

/** Entries of a folder whose lstat calls the walk makes at once. */
const LSTAT_AT_ONCE = 32

/** lsar indexes per unar run: a command line holds a few hundred thousand at most. */
const RAR_INDEXES_PER_RUN = 20_000

export async function extractArchive(tools: ExtractTools, input: ExtractInput): Promise<void> {
  if (input.singleTarget) return extractStream(tools, input, input.singleTarget)
  if (input.container !== 'rar' || input.rarEngine === 'unrar' || !input.rarIndexes || input.rarIndexes.length <= RAR_INDEXES_PER_RUN) return extractOnce(tools, input)
  for (let start = 0; start < input.rarIndexes.length; start += RAR_INDEXES_PER_RUN) {
    await extractOnce(tools, { ...input, rarIndexes: input.rarIndexes.slice(start, start + RAR_INDEXES_PER_RUN) })
  }
}

async function extractOnce(tools: ExtractTools, input: ExtractInput): Promise<void> {
  const limit = ['--fsize=' + String(Math.max(1, input.maxFileBytes)), '--', 'nice', '-n', '10']
  const listFiles: string[] = []
  const writeList = async (name: string, lines: (string | Buffer)[]) => {
    const path = join(input.outDir, '..', name)
    // A name holding a line break cannot be listed (and archive-listing refuses it for tests).
    const usable = lines.map((l) => (typeof l === 'string' ? Buffer.from(l, 'utf8') : l)).filter((l) => !l.includes(0x0a) && !l.includes(0x0d) && !l.includes(0))
    await writeFile(path, Buffer.concat(usable.flatMap((l) => [l, Buffer.from('\n')])))
    listFiles.push(path)
    return path
  }
  let children: ChildProcess[]
  let main: ChildProcess
  let sourceExit: Promise<number> = Promise.resolve(0)
  const sourceErrors: string[] = []
  let unrarDone: ReturnType<typeof startUnrar>['done'] | null = null
  if (input.container === 'rar' && input.rarEngine === 'unrar') {
    const names = input.names?.map((n) => (typeof n === 'string' ? n : n.toString('utf8'))) ?? null
    if (input.signal.aborted) throw input.signal.reason ?? new Error('aborted')
    const started = startUnrar('extract', input.archivePath, { password: input.password, target: input.outDir, names, maxFileBytes: input.maxFileBytes, signal: input.signal })
    main = started.child
    unrarDone = started.done
    // Its verdict is read from its reply below; the close event tells the end as for the others.
    unrarDone.catch(() => undefined)
    children = [main]
  } else if (input.container === 'rar') {
    // Nothing here is encrypted (that goes to unrar): unar never needs, nor sees, a password.
    const args = [...limit, tools.unarPath, '-o', input.outDir, '-D', '-f', '-q', '-k', 'skip', input.archivePath]
    if (input.rarIndexes) args.push('-i', ...input.rarIndexes.map(String))
    main = spawn('prlimit', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    children = [main]
  } else {
    const selection: string[] = ['-spd']
    if (input.names) selection.push(`-i@${await writeList('include.txt', input.names)}`)
    if (input.excluded.length > 0) selection.push(`-x@${await writeList('exclude.txt', input.excluded)}`)
    // -bb1 names each file as it starts on it; stdbuf makes 7zz say so at once, not at its end.
    const common = ['x', '-y', '-bd', '-bb1', '-bso1', '-bsp0', '-scsUTF-8', `-o${input.outDir}`, ...selection]
    limit.push('stdbuf', '-oL')
    if (input.listedFormat === 'tar' && input.container !== 'tar') {
      // A compressed tar: decompressed on the way, the tar unpacked from the stream.
      const source = spawn('nice', ['-n', '10', tools.sevenZipPath, 'e', '-so', '-bd', '--', input.archivePath], { stdio: ['ignore', 'pipe', 'pipe'] })
      main = spawn('prlimit', [...limit, tools.sevenZipPath, ...common, '-si', '-ttar'], { stdio: ['pipe', 'pipe', 'pipe'] })
      source.stdout!.pipe(main.stdin!)
      main.stdin!.on('error', () => {})
      source.stderr!.setEncoding('utf8')
      source.stderr!.on('data', (chunk: string) => sourceErrors.push(chunk.slice(0, 4096)))
      // The stream's end is the decompressor's word: a damaged .gz ends early and its tar looks whole.
      sourceExit = new Promise((resolve) => {
        source.once('error', () => resolve(-1))
        source.once('close', (code) => resolve(code ?? -1))
      })
      children = [source, main]
    } else {
      main = spawn('prlimit', [...limit, tools.sevenZipPath, ...common, ...codePageArgs(input.zipEncoding), '--', input.archivePath], { stdio: ['pipe', 'pipe', 'pipe'] })
      // 7zz reads a password from its input when the archive asks for one; never from the command line.
      main.stdin!.on('error', () => {})
      main.stdin!.end(`${input.password}\n`)
      children = [main]
    }
  }
  const output: string[] = []
  let outputBytes = 0
  const keep = (chunk: string) => {
    if (outputBytes > 64 * 1024) return
    outputBytes += chunk.length
    output.push(chunk)
  }
  main.stderr!.setEncoding('utf8')
  main.stderr!.on('data', keep)
  main.stdout!.setEncoding('utf8')
  if (input.container === 'rar') {
    main.stdout!.on('data', keep)
  } else {
    // Lines of `- <path>`: the one before each names a file the tool has finished.
    let partial = ''
    let previous: string | null = null
    main.stdout!.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) {
        if (!line.startsWith('- ')) {
          if (!/^(Extracting|Path|Type|Physical|Headers|Method|Solid|Blocks|Code Page|Characteristics|Scanning|1 file|7-Zip|\s*64-bit|--|Everything|Folders|Files|Size|Compressed|$)/.test(line)) keep(`${line}\n`)
          continue
        }
        if (previous !== null) input.onFileWritten?.(previous)
        previous = join(input.outDir, line.slice(2))
      }
    })
  }
  const killAll = () => {
    for (const child of children) child.kill('SIGKILL')
  }
  let overrun = false
  let stopped = false
  const onAbort = () => killAll()
  input.signal.addEventListener('abort', onAbort)
  // The wait between two counts ends early when the tool exits (the run must not wait it out).
  let wake: () => void = () => {}
  const poll = async () => {
    while (!stopped) {
      const started = Date.now()
      const bytes = await bytesUnder(input.outDir)
      if (stopped) return
      if (bytes > input.maxTotalBytes) {
        overrun = true
        killAll()
        return
      }
      input.onBytes?.(bytes)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(POLL_MIN_MS, (Date.now() - started) * 10))
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  }
  try {
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      // Not the error itself: it carries the arguments (unar's password) into the logs.
      main.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new ToolMissing('prlimit') : err.name === 'AbortError' ? err : new Error(`the unpacking tool could not be started (${err.code ?? err.message})`)))
      main.once('close', (code, signal) => resolve({ code, signal }))
    })
    const polling = poll()
    const { code, signal } = await exit
    stopped = true
    wake()
    await polling
    if (input.signal.aborted) throw input.signal.reason ?? new Error('aborted')
    const text = output.join('')
    if (/failed to (execute|run command)/.test(text) && code !== 0) throw new ToolMissing(input.container === 'rar' ? tools.unarPath : tools.sevenZipPath)
    if (overrun || signal === 'SIGXFSZ' || (await bytesUnder(input.outDir)) > input.maxTotalBytes) {
      throw new ExtractFailed('overrun', 'the archive holds more than it declares')
    }
    const decompressed = await sourceExit
    if (decompressed !== 0) throw new ExtractFailed('damaged', `the archive is damaged or truncated: ${firstLine(sourceErrors.join('')) || `the decompressor ended with ${decompressed}`}`)
    if (unrarDone) {
      const { reply } = await unrarDone
      if (code === 0 && reply?.ok) return
      const failure = unrarFailureOf(reply?.reason ?? 'ERAR_UNKNOWN', input.password)
      if (failure === 'overrun') throw new ExtractFailed('overrun', 'the archive holds more than it declares')
      if (failure !== 'damaged') throw new ExtractFailed('wrong_password', 'the password is wrong')
      throw new ExtractFailed('damaged', `the archive is damaged or truncated: ${reply?.detail ?? `unrar ended with ${code}`}`)
    }
    // 7zz: 1 is a warning (a file it would not write, such as a link pointing outside).
    if (code === 0 || (code === 1 && input.container !== 'rar')) return
    if (/wrong password|missing or wrong password|requires a password/i.test(text)) throw new ExtractFailed('wrong_password', 'the password is wrong')
    throw new ExtractFailed('damaged', `the archive is damaged or truncated: ${firstLine(text)}`)
  } finally {
    stopped = true
    input.signal.removeEventListener('abort', onAbort)
    killAll()
  }
}

/**
 * A compressed single file: `7zz e -so` decompresses (niced, in its process) and we write the
 * stream to `target`, counting: past the bytes the listing counted, the tool is stopped.
 */
async function extractStream(tools: ExtractTools, input: ExtractInput, target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true })
  const child = spawn('nice', ['-n', '10', tools.sevenZipPath, 'e', '-so', '-bd', '--', input.archivePath], { stdio: ['ignore', 'pipe', 'pipe'], signal: input.signal })
  const errors: string[] = []
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (chunk: string) => errors.push(chunk.slice(0, 4096)))
  let bytes = 0
  let overrun = false
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length
      if (bytes > input.maxTotalBytes) {
        overrun = true
        child.kill('SIGKILL')
        return callback(new ExtractFailed('overrun', 'the archive holds more than it declares'))
      }
      input.onBytes?.(bytes)
      callback(null, chunk)
    },
  })
  const exit = new Promise<number>((resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new ToolMissing('nice') : new Error(`the unpacking tool could not be started (${err.code ?? err.message})`)))
    child.once('close', (code) => resolve(code ?? -1))
  })
  // Handled now: an abort rejects it (the child is killed) before the pipeline's end is awaited,
  // and an unhandled rejection would end the process.
  exit.catch(() => undefined)
  try {
    await pipeline(child.stdout!, counter, createWriteStream(target, { flags: 'wx' }))
  } catch (err) {
    child.kill('SIGKILL')
    if (input.signal.aborted) throw input.signal.reason ?? err
    if (overrun) throw new ExtractFailed('overrun', 'the archive holds more than it declares')
    throw err
  }
  const code = await exit.catch((err: unknown) => {
    if (input.signal.aborted) throw input.signal.reason ?? err
    throw err
  })
  if (code !== 0) throw new ExtractFailed('damaged', `the archive is damaged or truncated: ${firstLine(errors.join(''))}`)
}

function firstLine(text: string): string {
  const line = text.split('\n').map((l) => l.trim()).find((l) => /error|cannot|unexpected|failed/i.test(l))
  return (line ?? text.trim().split('\n').at(-1) ?? 'no detail').slice(0, 300)
}

/** The bytes of the regular files under `dir` (links not followed, not counted). */
export async function bytesUnder(dir: string): Promise<number> {
  let total = 0
  for await (const file of regularFiles(dir, [], true)) total += file.size
  return total
}

export interface StagedFile {
  /** The names on disk from the staging folder down, as bytes (a legacy zip's names are not UTF-8). */
  segments: Buffer[]
  path: Buffer
  size: number
  /** To tell that a file hashed while the tool ran is the one found after it. */
  ino: number
  mtimeMs: number
}

/**
 * Every regular file under `dir`, depth first. Symlinks (to files or folders), devices, FIFOs and
 * sockets are skipped and never followed; so is a file with more than one link (which a hard
 * link entry could have tied to a file outside), unless `withLinked` (counting bytes).
 */
export async function* regularFiles(dir: string | Buffer, segments: Buffer[] = [], withLinked = false): AsyncGenerator<StagedFile> {
  const base = typeof dir === 'string' ? Buffer.from(dir) : dir
  let handle: Dir
  try {
    handle = await opendir(base, { encoding: 'buffer' as BufferEncoding })
  } catch {
    return
  }
  // A few entries at a time, their lstat calls at once: one after another, the walk of an
  // archive of many files waited for each round trip to libuv's pool in turn.
  let batch: Dirent[] = []
  for await (const entry of handle) {
    batch.push(entry)
    if (batch.length === LSTAT_AT_ONCE) {
      yield* walkBatch(base, segments, withLinked, batch)
      batch = []
    }
  }
  yield* walkBatch(base, segments, withLinked, batch)
}

async function* walkBatch(base: Buffer, segments: Buffer[], withLinked: boolean, batch: Dirent[]): AsyncGenerator<StagedFile> {
  const found = await Promise.all(
    batch.map(async (entry) => {
      const name = entry.name as unknown as Buffer
      const path = Buffer.concat([base, Buffer.from('/'), name])
      const known = entry.isDirectory() || entry.isFile() || entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()
      // A file system that does not say an entry's type: lstat says it (links are never followed).
      const info = entry.isFile() || !known ? await lstat(path).catch(() => null) : null
      return { name, path, isDirectory: entry.isDirectory() || info?.isDirectory() === true, info }
    }),
  )
  for (const { name, path, isDirectory, info } of found) {
    if (isDirectory) {
      yield* regularFiles(path, [...segments, name], withLinked)
    } else if (info?.isFile() && (withLinked || info.nlink === 1)) {
      yield { segments: [...segments, name], path, size: info.size, ino: info.ino, mtimeMs: info.mtimeMs }
    }
  }
}
