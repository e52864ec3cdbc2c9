import { spawn } from 'node:child_process'
import { close as closeFd, createReadStream, fstat, open as openFd, read as readFd } from 'node:fs'
import { mkdtemp, open, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import yauzl from 'yauzl'
import { ToolMissing } from '../../lib/tools.js'
import { extractWithUnrar, listWithUnrar } from './unrar.js'
import { type ZipNameEncoding, decodeZipName, detectZipNameEncoding } from './zip-names.js'

export type ArchiveFormat = 'zip' | '7z' | 'rar' | 'tar' | 'gzip' | 'bzip2' | 'xz' | 'zstd'

/** One entry as the archive declares it (sizes may lie; unpacking counts the real bytes). */
export interface ArchiveEntry {
  /** The name as stored, decoded; entry-path.ts turns it into drive names. */
  name: string
  isDirectory: boolean
  /** Symlinks and hard links: listed, never unpacked. */
  isLink: boolean
  encrypted: boolean
  sizeBytes: number
  packedBytes: number
  /** The tool's own number for the entry, where unpacking names entries by it (lsar's XADIndex). */
  toolIndex?: number
  /**
   * A zip name without the UTF-8 flag, as stored: 7zz on Linux neither converts such names nor
   * matches them in a list other than by these bytes, and writes them to disk as they are.
   */
  storedName?: Buffer
}

export type ListingOutcome =
  | {
      status: 'OK'
      format: ArchiveFormat
      entries: ArchiveEntry[]
      zipEncoding: ZipNameEncoding | null
      /** A RAR with encryption, which unrar reads (unrar.ts): unpacked by it, by name. */
      rarEngine?: 'unrar'
    }
  | { status: 'PASS_WORD_EMPTY' | 'PASS_WORD_ERROR'; format: ArchiveFormat }
  | { status: 'NOT_SUPPORTED' | 'FILE_TOO_LARGE'; reason: string }

export interface ArchiveTools {
  sevenZipPath: string
  lsarPath: string
}

/** The most entries an archive may hold to be looked into (and unpacked). */
export const MAX_ENTRIES = 500_000

/** What a listing may hold: entries, and what a tool may print to say them (~336 bytes each). */
interface Limits {
  maxEntries: number
  maxOutputBytes: number
}

function limitsFor(maxEntries: number): Limits {
  return { maxEntries, maxOutputBytes: maxEntries * 336 }
}

function tooLarge(limits: Limits): ListingOutcome {
  return { status: 'FILE_TOO_LARGE', reason: `the archive holds more than ${limits.maxEntries} entries` }
}

/** Reads the first bytes and names the format; null for anything else. Sniffing, not parsing. */
export async function sniffFormat(path: string): Promise<ArchiveFormat | null> {
  const file = await open(path, 'r')
  try {
    const head = Buffer.alloc(264)
    const { bytesRead } = await file.read(head, 0, head.length, 0)
    const at = (offset: number, bytes: number[]) => bytesRead >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b)
    if (at(0, [0x50, 0x4b, 0x03, 0x04]) || at(0, [0x50, 0x4b, 0x05, 0x06]) || at(0, [0x50, 0x4b, 0x07, 0x08])) return 'zip'
    if (at(0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z'
    if (at(0, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])) return 'rar'
    if (at(257, [0x75, 0x73, 0x74, 0x61, 0x72])) return 'tar'
    if (at(0, [0x1f, 0x8b])) return 'gzip'
    if (at(0, [0x42, 0x5a, 0x68])) return 'bzip2'
    if (at(0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return 'xz'
    if (at(0, [0x28, 0xb5, 0x2f, 0xfd])) return 'zstd'
    return null
  } finally {
    await file.close()
  }
}

/**
 * Lists every entry of the archive at `path`. A zip is read from its central directory (yauzl:
 * no pass over the data, however large); 7z, tar and the compressors through `7zz l -slt`, RAR
 * through `lsar -j` (an encrypted RAR then through unrar, unrar.ts). An archive whose names or
 * contents are encrypted answers with the
 * password statuses when the password is missing or wrong.
 */
export async function listArchive(
  tools: ArchiveTools,
  path: string,
  password: string,
  options: {
    signal?: AbortSignal
    preferredCodePage?: ZipNameEncoding['name'] | null
    maxEntries?: number
    /** The name of the one file a .gz, .bz2, .xz or .zst holds (singleFileName of the archive's name). */
    singleName?: string
  } = {},
): Promise<ListingOutcome> {
  const { signal, preferredCodePage = null } = options
  const limits = limitsFor(options.maxEntries ?? MAX_ENTRIES)
  const format = await sniffFormat(path)
  if (!format) return { status: 'NOT_SUPPORTED', reason: 'not an archive this server can open' }
  // Passwords go to the tools as one line: one holding a line break cannot be typed, nor right.
  if (/[\r\n\0]/.test(password)) return { status: 'PASS_WORD_ERROR', format }
  if (format === 'rar') return listWithLsar(tools, path, password, limits, signal)
  const listed = format === 'zip' ? await listZip(path, preferredCodePage, limits) : await listWith7z(tools, path, format, password, limits, signal, options.singleName ?? 'content')
  if (listed.status !== 'OK') return listed
  const encrypted = listed.entries.filter((entry) => entry.encrypted && !entry.isDirectory)
  if (encrypted.length === 0) return listed
  if (password === '') return { status: 'PASS_WORD_EMPTY', format }
  // Contents are encrypted but names are not: test the password on the smallest encrypted entry
  // that can be named to 7zz. Should 7zz decode that name otherwise than we did (it then tests no
  // file at all and says all is well), test the whole archive instead: never an unchecked OK.
  const nameable = encrypted.filter((entry) => !/[\0\r\n]/.test(entry.name))
  const smallest = nameable.length > 0 ? nameable.reduce((a, b) => (b.packedBytes < a.packedBytes ? b : a)) : null
  let test = smallest ? await run7z(tools, ['t', '-spd', ...codePageArgs(listed.zipEncoding), '--', path, smallest.name], password, signal) : null
  if (!test || testedNothing(test.text)) test = await run7z(tools, ['t', ...codePageArgs(listed.zipEncoding), '--', path], password, signal)
  if (test.code === 0 && !testedNothing(test.text)) return listed
  return test.text.includes('Wrong password') ? { status: 'PASS_WORD_ERROR', format } : { status: 'NOT_SUPPORTED', reason: firstError(test.text) }
}

/** 7zz's report of a test that matched no file (exit code 0 all the same). */
function testedNothing(text: string): boolean {
  return text.includes('No files to process') || /^Files: 0$/m.test(text)
}

export function codePageArgs(encoding: ZipNameEncoding | null): string[] {
  return encoding && encoding.name !== 'utf-8' ? [`-mcp=${encoding.codePage}`] : []
}

async function listZip(path: string, preferredCodePage: ZipNameEncoding['name'] | null, limits: Limits): Promise<ListingOutcome> {
  let zip: yauzl.ZipFile
  try {
    zip = await openZip(path)
  } catch (err) {
    return { status: 'NOT_SUPPORTED', reason: `the zip cannot be read: ${(err as Error).message}` }
  }
  const raw: { entry: yauzl.Entry; name: Buffer; unicode: string | null }[] = []
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (raw.length > limits.maxEntries) {
          zip.close()
          return resolve()
        }
        const name = entry.fileName as unknown as Buffer
        // The UTF-8 flag, or an Info-ZIP Unicode Path field: the name says its own encoding.
        const flagged = (entry.generalPurposeBitFlag & 0x800) !== 0 || entry.extraFields.some((field) => field.id === 0x7075)
        raw.push({ entry, name, unicode: flagged ? (yauzl as unknown as LowLevel).getFileNameLowLevel(entry.generalPurposeBitFlag, name, entry.extraFields, false) : null })
        zip.readEntry()
      })
      zip.once('end', () => resolve())
      zip.once('error', reject)
      zip.readEntry()
    })
  } catch (err) {
    zip.close()
    return { status: 'NOT_SUPPORTED', reason: `the zip is damaged: ${(err as Error).message}` }
  }
  if (raw.length > limits.maxEntries) return tooLarge(limits)
  const unflagged = raw.filter((r) => r.unicode === null).map((r) => r.name)
  const zipEncoding = unflagged.length > 0 ? detectZipNameEncoding(unflagged, preferredCodePage) : null
  const entries = raw.map(({ entry, name, unicode }): ArchiveEntry => {
    const decoded = unicode ?? decodeZipName(name, zipEncoding!)
    const mode = (entry.externalFileAttributes >>> 16) & 0o170000
    return {
      name: decoded,
      isDirectory: decoded.endsWith('/') || decoded.endsWith('\\') || mode === 0o040000,
      isLink: mode === 0o120000,
      encrypted: (entry.generalPurposeBitFlag & 0x1) !== 0,
      sizeBytes: entry.uncompressedSize,
      packedBytes: entry.compressedSize,
      // A copy: the name yauzl gives is a view of its whole central directory record (extra
      // fields and comment too, up to 192 KB), which a kept listing would otherwise hold.
      ...(unicode === null ? { storedName: Buffer.from(name) } : {}),
    }
  })
  return { status: 'OK', format: 'zip', entries, zipEncoding }
}

/**
 * yauzl reads each central-directory record with a read of its own: 100,000 entries took 6.4 s
 * from a file. This reader answers yauzl's reads from 1 MiB blocks of the file, so reading the
 * central directory costs one read per MiB of it (0.35 s for those 100,000), and still never
 * reads the archive's data.
 */
class BlockReader extends yauzl.RandomAccessReader {
  #block: { start: number; bytes: Buffer } | null = null

  constructor(
    private readonly fd: number,
    private readonly sizeBytes: number,
  ) {
    super()
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null, bytesRead?: number) => void): void {
    const block = this.#block
    if (block && position >= block.start && position + length <= block.start + block.bytes.length) {
      block.bytes.copy(buffer, offset, position - block.start, position - block.start + length)
      // Never synchronously: yauzl's next read comes from this callback, entry after entry.
      return void process.nextTick(callback, null, length)
    }
    if (position < 0 || position + length > this.sizeBytes) return void process.nextTick(callback, new Error('the zip points past its end'))
    const bytes = Buffer.allocUnsafe(Math.min(Math.max(BLOCK_BYTES, length), this.sizeBytes - position))
    readFd(this.fd, bytes, 0, bytes.length, position, (err, bytesRead) => {
      if (err) return callback(err)
      this.#block = { start: position, bytes: bytes.subarray(0, bytesRead) }
      if (bytesRead < length) return callback(new Error('unexpected end of the zip'))
      bytes.copy(buffer, offset, 0, length)
      callback(null, length)
    })
  }

  override _readStreamForRange(start: number, end: number) {
    return createReadStream('', { fd: this.fd, start, end: end - 1, autoClose: false })
  }

  override close(callback: (err: Error | null) => void): void {
    closeFd(this.fd, (err) => callback(err ?? null))
  }
}

const BLOCK_BYTES = 1024 * 1024

async function openZip(path: string): Promise<yauzl.ZipFile> {
  // A plain descriptor, not a FileHandle: yauzl closes it through the reader when it is done.
  const fd = await promisify(openFd)(path, 'r')
  try {
    const { size } = await promisify(fstat)(fd)
    return await promisify<yauzl.RandomAccessReader, number, yauzl.Options, yauzl.ZipFile>(yauzl.fromRandomAccessReader)(new BlockReader(fd, size), size, { lazyEntries: true, decodeStrings: false, autoClose: true })
  } catch (err) {
    closeFd(fd, () => {})
    throw err
  }
}

interface LowLevel {
  getFileNameLowLevel(flags: number, name: Buffer, extraFields: unknown[], strict: boolean): string
}

async function listWith7z(tools: ArchiveTools, path: string, format: ArchiveFormat, password: string, limits: Limits, signal: AbortSignal | undefined, singleName: string): Promise<ListingOutcome> {
  const result = await run7z(tools, ['l', '-slt', '-ba', '--', path], password, signal, limits.maxOutputBytes)
  if (result.tooLarge) return tooLarge(limits)
  if (result.code !== 0) {
    if (result.text.includes('Cannot open encrypted archive')) return { status: password === '' ? 'PASS_WORD_EMPTY' : 'PASS_WORD_ERROR', format }
    return { status: 'NOT_SUPPORTED', reason: firstError(result.text) }
  }
  const entries = parseSltBlocks(result.stdout)
  if (entries.length > limits.maxEntries) return tooLarge(limits)
  if (format === 'gzip' || format === 'bzip2' || format === 'xz' || format === 'zstd') {
    // A compressed tar lists as one `.tar`: list the tar inside instead, decompressed on the
    // way (a compressed stream has no index, so this reads it once). A compressed single file
    // (notes.txt.gz) is that one file.
    const inner = await listCompressedTar(tools, path, limits, signal)
    if (inner === 'too large') return tooLarge(limits)
    if (inner === 'damaged') return { status: 'NOT_SUPPORTED', reason: 'the archive is damaged or truncated' }
    if (inner) return inner.length > limits.maxEntries ? tooLarge(limits) : { status: 'OK', format: 'tar', entries: inner, zipEncoding: null }
    // A compressed single file (notes.txt.gz): its size is counted, not taken from the stream
    // (bzip2 and xz do not say it, gzip says it modulo 4 GiB), and it takes the archive's name.
    const counted = await streamBytes(tools, path, signal)
    if (counted === null) return { status: 'NOT_SUPPORTED', reason: 'the archive is damaged or truncated' }
    const packedBytes = (await stat(path)).size
    return { status: 'OK', format, entries: [{ name: singleName, isDirectory: false, isLink: false, encrypted: false, sizeBytes: counted, packedBytes }], zipEncoding: null }
  }
  return { status: 'OK', format, entries, zipEncoding: null }
}

/** The bytes `7zz e -so` gives for a compressed stream, or null when the stream is damaged. */
function streamBytes(tools: ArchiveTools, path: string, signal?: AbortSignal): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('nice', ['-n', '10', tools.sevenZipPath, 'e', '-so', '-bd', '--', path], { stdio: ['ignore', 'pipe', 'ignore'], signal })
    let bytes = 0
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length))
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new ToolMissing('nice') : error))
    child.once('close', (code) => resolve(code === 0 ? bytes : null))
  })
}

/** The name of the one file a compressed stream holds: the archive's name without its suffix (`notes.txt.gz` → `notes.txt`). */
export function singleFileName(archiveName: string): string {
  const stem = archiveName.replace(/\.(gz|gzip|bz2|bzip2|xz|zst|zstd|lzma|lz|z)$/i, '')
  return stem === '' || stem === archiveName ? `${archiveName}.out` : stem
}

/** `7zz e -so <archive> | 7zz l -si -ttar`: the tar's entries, null when the stream holds no tar, 'damaged' when the stream is. */
function listCompressedTar(tools: ArchiveTools, path: string, limits: Limits, signal?: AbortSignal): Promise<ArchiveEntry[] | 'too large' | 'damaged' | null> {
  return new Promise((resolve, reject) => {
    const decompress = spawn(tools.sevenZipPath, ['e', '-so', '-p', '--', path], { stdio: ['ignore', 'pipe', 'ignore'], signal })
    // A damaged stream ends early, and the tar read so far looks whole: the decompressor must say all is well.
    const decompressed = new Promise<number>((done) => decompress.once('close', (code) => done(code ?? -1)))
    const lister = spawn(tools.sevenZipPath, ['l', '-slt', '-ba', '-si', '-ttar'], { stdio: ['pipe', 'pipe', 'pipe'], signal, env: { ...process.env, LC_ALL: 'C.UTF-8' } })
    decompress.stdout.pipe(lister.stdin)
    // The lister stops reading at a stream that is no tar; the decompressor then gets EPIPE.
    lister.stdin.on('error', () => {})
    decompress.once('error', reject)
    lister.once('error', reject)
    const out = collect(lister.stdout, limits.maxOutputBytes, () => lister.kill('SIGKILL'))
    lister.stderr.resume()
    lister.once('close', (code) => {
      if (out.over()) {
        decompress.kill()
        return resolve('too large')
      }
      const entries = code === 0 ? parseSltBlocks(out.text()) : []
      if (entries.length === 0) {
        decompress.kill()
        return resolve(null)
      }
      void decompressed.then((status) => resolve(status === 0 ? entries : 'damaged'))
    })
  })
}

/** `7zz l -slt -ba`: one `key = value` line per property, a blank line between entries. */
export function parseSltBlocks(text: string): ArchiveEntry[] {
  const entries: ArchiveEntry[] = []
  let current: Map<string, string> | null = null
  const flush = () => {
    if (!current?.has('Path')) return
    const attributes = current.get('Attributes') ?? ''
    entries.push({
      name: current.get('Path')!,
      isDirectory: current.get('Folder') === '+' || /^D/.test(attributes) || / d[rwx-]{9}/.test(attributes),
      // The type letter of a Unix mode (setuid, setgid and sticky bits show as s, S, t, T): links and special files.
      isLink: (current.get('Symbolic Link') ?? '') !== '' || (current.get('Hard Link') ?? '') !== '' || / [lcbps][rwxsStT-]{9}/.test(attributes),
      encrypted: current.get('Encrypted') === '+',
      sizeBytes: Number(current.get('Size') || 0),
      packedBytes: Number(current.get('Packed Size') || 0),
    })
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      flush()
      current = null
      continue
    }
    const at = line.indexOf(' = ')
    if (at < 0) continue
    const key = line.slice(0, at)
    if (key === 'Path' && current?.has('Path')) flush()
    if (key === 'Path' && (current === null || current.has('Path'))) current = new Map()
    current ??= new Map()
    current.set(key, line.slice(at + 3))
  }
  flush()
  return entries
}

/** 4 or 5 by the signature, or null: RAR 4 is `Rar!\x1a\x07\x00`, RAR 5 `Rar!\x1a\x07\x01\x00`. */
async function rarVersionOf(path: string): Promise<4 | 5 | null> {
  const file = await open(path, 'r')
  try {
    const head = Buffer.alloc(8)
    const { bytesRead } = await file.read(head, 0, 8, 0)
    if (bytesRead < 7 || head.subarray(0, 6).toString('latin1') !== 'Rar!\x1a\x07') return null
    return head[6] === 0 ? 4 : head[6] === 1 ? 5 : null
  } finally {
    await file.close()
  }
}

/**
 * A RAR with encryption (names or contents, RAR 4 or 5): unrar lists it (its names, as unrar
 * will unpack them) and checks the password, which it reads from its input; lsar and unar take a
 * password only on their command line, where every local user could read it in /proc, and unar
 * cannot decrypt RAR 4 at all. Names encrypted: the listing itself proves the password (they do
 * not decrypt without it). Contents alone: one encrypted entry is unpacked into a scratch folder
 * (in a solid archive the first, which needs nothing decoded before it; else the smallest, and
 * no byte past its declared size). Null when unrar cannot read it either.
 */
async function listRarWithUnrar(path: string, password: string, limits: Limits, links: Set<string>, signal?: AbortSignal): Promise<ListingOutcome | null> {
  const listed = await listWithUnrar(path, password, { maxEntries: limits.maxEntries, signal })
  if (!listed.ok) {
    if (listed.failure === 'password_missing') return { status: 'PASS_WORD_EMPTY', format: 'rar' }
    if (listed.failure === 'password_wrong') return { status: 'PASS_WORD_ERROR', format: 'rar' }
    return null
  }
  if (listed.entries.length > limits.maxEntries) return tooLarge(limits)
  const entries = listed.entries.map((e): ArchiveEntry => ({ name: e.name, isDirectory: e.isDirectory, isLink: links.has(e.name), encrypted: e.encrypted, sizeBytes: e.sizeBytes, packedBytes: e.packedBytes }))
  const encrypted = entries.filter((e) => e.encrypted && !e.isDirectory && !e.isLink && e.sizeBytes > 0)
  if (!listed.headersEncrypted && encrypted.length > 0) {
    if (password === '') return { status: 'PASS_WORD_EMPTY', format: 'rar' }
    const probe = listed.solid ? encrypted[0]! : encrypted.reduce((a, b) => (b.sizeBytes < a.sizeBytes ? b : a))
    const scratch = await mkdtemp(join(tmpdir(), 'cumulus-rar-test-'))
    try {
      const failed = await extractWithUnrar(path, { password, target: scratch, names: [probe.name], maxFileBytes: probe.sizeBytes, ...(signal ? { signal } : {}) })
      if (failed?.failure === 'password_missing' || failed?.failure === 'password_wrong') return { status: 'PASS_WORD_ERROR', format: 'rar' }
      if (failed) return { status: 'NOT_SUPPORTED', reason: failed.detail }
    } finally {
      await rm(scratch, { recursive: true, force: true })
    }
  }
  return { status: 'OK', format: 'rar', entries, zipEncoding: null, rarEngine: 'unrar' }
}

async function listWithLsar(tools: ArchiveTools, path: string, password: string, limits: Limits, signal?: AbortSignal): Promise<ListingOutcome> {
  // Never with the password (see listRarWithUnrar): what is encrypted goes to unrar.
  const result = await runTool(tools.lsarPath, ['-j', '--', path], signal, '', limits.maxOutputBytes * 2)
  if (result.tooLarge) return tooLarge(limits)
  let parsed: { lsarContents?: Record<string, unknown>[] } | null = null
  try {
    parsed = JSON.parse(result.stdout.slice(result.stdout.indexOf('{')))
  } catch {
    parsed = null
  }
  const unreadable = (reason: string): ListingOutcome => ({ status: 'NOT_SUPPORTED', reason })
  if (result.text.includes('requires a password') || !parsed?.lsarContents) {
    // Names encrypted: lsar says so and lists nothing.
    if (/password/i.test(result.text)) {
      if (password === '') return { status: 'PASS_WORD_EMPTY', format: 'rar' }
      return (await listRarWithUnrar(path, password, limits, new Set(), signal)) ?? unreadable('unrar cannot read this RAR archive')
    }
    // A RAR 4 that lsar cannot parse may still be one unrar reads.
    if ((await rarVersionOf(path)) === 4) {
      const viaUnrar = await listRarWithUnrar(path, password, limits, new Set(), signal)
      if (viaUnrar) return viaUnrar
    }
    return unreadable(firstError(result.text))
  }
  if (parsed.lsarContents.length > limits.maxEntries) return tooLarge(limits)
  const entries = parsed.lsarContents.map(
    (item): ArchiveEntry => ({
      name: String(item['XADFileName'] ?? ''),
      isDirectory: item['XADIsDirectory'] === 1 || item['XADIsDirectory'] === true,
      // lsar says XADIsLink for a symbolic link; devices and FIFOs are never unpacked either.
      isLink: ['XADIsLink', 'XADIsSymbolicLink', 'XADIsHardLink', 'XADIsFIFO', 'XADIsCharacterDevice', 'XADIsBlockDevice'].some((key) => item[key] === 1 || item[key] === true),
      encrypted: item['XADIsEncrypted'] === 1 || item['XADIsEncrypted'] === true,
      sizeBytes: Number(item['XADFileSize'] ?? 0),
      packedBytes: Number(item['XADCompressedSize'] ?? 0),
      toolIndex: Number(item['XADIndex'] ?? -1),
    }),
  )
  const encrypted = entries.filter((entry) => entry.encrypted && !entry.isDirectory && entry.sizeBytes > 0)
  if (encrypted.length === 0) return { status: 'OK', format: 'rar', entries, zipEncoding: null }
  // Contents encrypted: unrar checks the password, and then unpacks it.
  if (password === '') return { status: 'PASS_WORD_EMPTY', format: 'rar' }
  const links = new Set(entries.filter((e) => e.isLink).map((e) => e.name))
  return (await listRarWithUnrar(path, password, limits, links, signal)) ?? unreadable('unrar cannot read this RAR archive')
}

/**
 * 7zz asks for a password on its standard input when an archive needs one: it is written there,
 * never put on the command line (where every local user could read it in /proc). An empty line
 * stands for no password (an empty input would make 7zz stop with "Break signaled").
 */
function run7z(tools: ArchiveTools, args: string[], password: string, signal?: AbortSignal, maxOutputBytes = limitsFor(MAX_ENTRIES).maxOutputBytes) {
  return runTool(tools.sevenZipPath, args, signal, `${password}\n`, maxOutputBytes)
}

interface ToolResult {
  code: number | null
  stdout: string
  /** stdout and stderr together, for the tool's messages. */
  text: string
  /** The tool said more than it may and was stopped. */
  tooLarge: boolean
}

/**
 * Collects a stream's text up to `maxBytes`; past it `onOver` runs (the tool is stopped). A small
 * archive of empty files lists long (131 KB of .tar.xz gave 27 MB of 7zz output).
 */
function collect(stream: NodeJS.ReadableStream, maxBytes: number, onOver: () => void) {
  const chunks: string[] = []
  let bytes = 0
  let over = false
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    if (over) return
    bytes += chunk.length
    if (bytes > maxBytes) {
      over = true
      chunks.length = 0
      onOver()
      return
    }
    chunks.push(chunk)
  })
  return { text: () => chunks.join(''), over: () => over }
}

/** Runs a tool to its end, with `input` as its whole standard input (so it never waits for more). */
function runTool(path: string, args: string[], signal: AbortSignal | undefined, input: string, maxOutputBytes: number): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { stdio: ['pipe', 'pipe', 'pipe'], signal, env: { ...process.env, LC_ALL: 'C.UTF-8' } })
    // A tool that never reads its input (or has exited) must not fail the run with EPIPE.
    child.stdin.on('error', () => {})
    child.stdin.end(input)
    const out = collect(child.stdout, maxOutputBytes, () => child.kill('SIGKILL'))
    const err = collect(child.stderr, maxOutputBytes, () => child.kill('SIGKILL'))
    // Not the error itself: it carries the arguments, a password among them, into the logs.
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new ToolMissing(path) : error.name === 'AbortError' ? error : new Error(`${path} could not be started (${error.code ?? error.message})`)))
    child.once('close', (code) => {
      const stdout = out.text()
      resolve({ code, stdout, text: `${stdout}\n${err.text()}`, tooLarge: out.over() || err.over() })
    })
  })
}

function firstError(text: string): string {
  const line = text.split('\n').find((l) => /ERROR|error|Error/.test(l))
  return (line ?? text.trim().split('\n').at(-1) ?? 'the archive cannot be read').trim().slice(0, 300)
}
