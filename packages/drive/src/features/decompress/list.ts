import { availableParallelism } from 'node:os'
import { AppError, type DecompressListReply, DriveErrors, FOLDER_KIND, GenericErrors } from '@cumulus/protocol'
import type { FilesTable } from '../../db/schema.js'
import type { Caller, DriveDeps } from '../../deps.js'
import { findOwned } from '../../domain/index.js'
import { Slots } from '../../lib/slots.js'
import { ToolMissing } from '../../lib/tools.js'
import { type ArchivePart, archiveParts, partsKey, withArchivePath } from './archive-files.js'
import { type ArchiveEntry, type ArchiveFormat, type ListingOutcome, listArchive, singleFileName } from './archive-listing.js'
import { type ArchiveNode, archiveTree, levelEntries, nodeAt } from './archive-tree.js'
import { entryPath } from './entry-path.js'
import { type ZipNameEncoding, codePageOfLanguage } from './zip-names.js'

type Deps = Pick<DriveDeps, 'db' | 'blobs' | 'config' | 'logger'>

export interface ListInput {
  fileId: string
  gcid: string
  path: string
  password: string
  /** The caller's language (Accept-Language): it breaks ties between legacy zip code pages. */
  language: string
}

/**
 * `POST /decompress/v1/list`: one level of the caller's archive. Whatever the archive holds, the
 * answer is a status (drive.md "Decompress"): a missing or wrong password, or an archive this
 * server cannot read, is not an HTTP error.
 */
export async function listArchiveLevel(deps: Deps, caller: Caller, input: ListInput): Promise<DecompressListReply> {
  const file = await ownedArchive(deps, caller.userId, input.fileId, input.gcid)
  const gcid = file.gcid
  const path: string = input.path === '' ? '' : (entryPath(input.path) ?? noSuchPath())
  const reply = (status: DecompressListReply['status'], statusText: string, files: DecompressListReply['files'] = []): DecompressListReply => ({
    status,
    status_text: statusText,
    task_id: '',
    current_path: path,
    title: file.name,
    file_size: String(file.size),
    gcid,
    files,
  })

  const read = await readArchive(deps, caller.userId, await archiveParts(deps, file), file.name, input.password, input.language)
  if (read.status === 'OK') return reply('OK', '', levelEntries(nodeAt(read.tree, path) ?? noSuchPath(), path))
  return reply(read.status, read.reason)
}

/** The caller's live file `fileId` (with the GCID the client names, when it names one), or file_not_found. */
export async function ownedArchive(deps: Pick<DriveDeps, 'db'>, userId: string, fileId: string, gcid: string): Promise<FilesTable & { gcid: string }> {
  const file = await findOwned(deps.db, userId, fileId)
  if (file.trashed === 1 || file.kind === FOLDER_KIND || !file.gcid || (gcid !== '' && gcid.toUpperCase() !== file.gcid)) {
    throw new AppError(DriveErrors.file_not_found, { description: 'no such archive', metadata: { id: fileId } })
  }
  return file as FilesTable & { gcid: string }
}

/** An archive as read for listing and unpacking: its entries and their tree, or why not. */
export type ReadArchive =
  | { status: 'OK'; entries: ArchiveEntry[]; tree: ArchiveNode; format: ArchiveFormat; zipEncoding: ZipNameEncoding | null; rarEngine?: 'unrar' }
  | { status: 'PASS_WORD_EMPTY' | 'PASS_WORD_ERROR' | 'NOT_SUPPORTED' | 'FILE_TOO_LARGE'; reason: string }

/**
 * Reads the archive stored as `parts` (one file, or a RAR's volumes) with `password` (once per content, code page and password
 * while it stays among the recent listings), within the caller's listing slots.
 */
export async function readArchive(deps: Deps, userId: string, parts: readonly ArchivePart[], name: string, password: string, language: string): Promise<ReadArchive> {
  const preferredCodePage = codePageOfLanguage(language)
  const singleName = singleFileName(name)
  const key = listingKey(parts, name, password, language)
  const cached = keptRead(parts, name, password, language)
  if (cached) return cached
  let listed: ListingOutcome
  try {
    const signal = AbortSignal.timeout(LIST_TIMEOUT_MS)
    listed = await listingSlots.run(userId, () => withArchivePath(deps.blobs, parts, signal, (local) => listArchive(deps.config.archive, local, password, { preferredCodePage, signal, singleName })))
  } catch (err) {
    // A compressed tar has no index: listing one reads all of it, which a huge one cannot do in time.
    if ((err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError') return { status: 'NOT_SUPPORTED', reason: 'the archive takes too long to read; it may be too large to look into' }
    if (!(err instanceof ToolMissing)) throw err
    deps.logger.warn({ tool: err.tool }, 'an archive tool is missing: install 7zip and unar (SEVEN_ZIP_PATH, LSAR_PATH)')
    return { status: 'NOT_SUPPORTED', reason: 'this server cannot open archives of this kind yet' }
  }
  switch (listed.status) {
    case 'PASS_WORD_EMPTY':
      return { status: listed.status, reason: 'this archive needs a password' }
    case 'PASS_WORD_ERROR':
      return { status: listed.status, reason: 'the password is wrong' }
    case 'NOT_SUPPORTED':
    case 'FILE_TOO_LARGE':
      return { status: listed.status, reason: listed.reason }
    case 'OK': {
      const read: ReadArchive = { status: 'OK', entries: listed.entries, tree: archiveTree(listed.entries), format: listed.format, zipEncoding: listed.zipEncoding, ...(listed.rarEngine ? { rarEngine: listed.rarEngine } : {}) }
      // Readable by anyone: kept once, without a password (kept per password, a script listing it
      // with passwords p0, p1, … filled the node's memory). Else under the password it was read with.
      recentTrees.set(readableWithoutPassword(listed, password) ? listingKey(parts, name, '', language) : key, read, weightOf(listed.entries))
      return read
    }
  }
}

/** Formats whose names are never encrypted: a listing of them shows only what anyone can read. */
const PLAIN_NAME_FORMATS: ReadonlySet<ArchiveFormat> = new Set(['zip', 'tar', 'gzip', 'bzip2', 'xz', 'zstd'])

/**
 * Whether any password, or none, reads this listing the same: nothing in it is encrypted, and its
 * names did not need the password either (read without one, or a format that never encrypts
 * them). A 7z or RAR with encrypted names but only folders or empty files has no entry marked
 * encrypted, yet its names are the secret.
 */
function readableWithoutPassword(listed: { entries: readonly ArchiveEntry[]; format: ArchiveFormat }, password: string): boolean {
  return !listed.entries.some((e) => e.encrypted) && (password === '' || PLAIN_NAME_FORMATS.has(listed.format))
}

function listingKey(parts: readonly ArchivePart[], name: string, password: string, language: string): string {
  const singleName = singleFileName(name)
  // The name matters only to a compressed single file (it names the one file inside).
  return `${partsKey(parts)}\u0000${singleName.endsWith('.out') ? '' : singleName}\u0000${codePageOfLanguage(language) ?? ''}\u0000${password}`
}

/**
 * The listing a list or start call on this node kept, or null. An unpacking run takes it rather
 * than read the archive again: blobs never change under their GCID, so it is the same listing.
 */
export function keptListing(parts: readonly ArchivePart[], name: string, password: string, language: string): Extract<ReadArchive, { status: 'OK' }> | null {
  const kept = keptRead(parts, name, password, language)
  return kept?.status === 'OK' ? kept : null
}

/** The kept listing that answers `password`: the one anyone can read, else the one read with it. */
function keptRead(parts: readonly ArchivePart[], name: string, password: string, language: string): ReadArchive | undefined {
  return recentTrees.get(listingKey(parts, name, '', language)) ?? recentTrees.get(listingKey(parts, name, password, language))
}

/** Forgets every kept listing, as a node that never listed the archive (tests of the run that reads it again). */
export function forgetKeptListings(): void {
  recentTrees.clear()
}

/**
 * Reading an archive costs a process and a core (7zz, lsar) or a pass over a central directory:
 * one user gets at most PER_USER at once (a script guessing a 7z's password in parallel is
 * refused, not queued), and the node at most one per core, the rest waiting their turn.
 */
class ListingSlots {
  readonly #perUser = new Map<string, number>()
  readonly #node: Slots

  constructor(
    private readonly perUser: number,
    total: number,
  ) {
    this.#node = new Slots(total)
  }

  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const mine = this.#perUser.get(userId) ?? 0
    if (mine >= this.perUser) {
      throw new AppError(GenericErrors.resource_exhausted, { description: 'this account is already reading archives; try again when they are done', retryAfterSeconds: 1 })
    }
    this.#perUser.set(userId, mine + 1)
    try {
      return await this.#node.run(work)
    } finally {
      const left = (this.#perUser.get(userId) ?? 1) - 1
      if (left === 0) this.#perUser.delete(userId)
      else this.#perUser.set(userId, left)
    }
  }
}

const PER_USER_LISTINGS = 2
/** How long one reading of an archive may take before the list call gives up on it. */
const LIST_TIMEOUT_MS = 60_000
const listingSlots = new ListingSlots(PER_USER_LISTINGS, Math.max(1, availableParallelism()))

/**
 * The archives listed lately, so that opening folder after folder of a big archive reads it
 * once: a zip's central directory of 100,000 entries, or a whole compressed tar, is read per
 * listing otherwise. Keyed by content and code page, and by password where anything is
 * encrypted (a listing made with one password never answers another); bounded by what the
 * listings weigh (weightOf), the least recently used dropped first. Per process: another node
 * reads the archive again.
 */
class RecentListings {
  readonly #entries = new Map<string, { tree: ReadArchive; weight: number }>()
  #weight = 0
  constructor(private readonly maxWeight: number) {}

  get(key: string): ReadArchive | undefined {
    const hit = this.#entries.get(key)
    if (!hit) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, hit)
    return hit.tree
  }

  clear(): void {
    this.#entries.clear()
    this.#weight = 0
  }

  set(key: string, tree: ReadArchive, weight: number): void {
    const old = this.#entries.get(key)
    if (old) {
      this.#entries.delete(key)
      this.#weight -= old.weight
    }
    if (weight > this.maxWeight) return
    this.#entries.set(key, { tree, weight })
    this.#weight += weight
    for (const [oldKey, old] of this.#entries) {
      if (this.#weight <= this.maxWeight) break
      this.#entries.delete(oldKey)
      this.#weight -= old.weight
    }
  }
}

/**
 * About what a kept listing holds, in bytes: each name twice (the entry's, and its node's last
 * segment, as UTF-16 at worst) and about a kilobyte of objects per entry (the entry, its node and
 * the node's map of children), measured at 1.1 KB per entry of short names.
 */
function weightOf(entries: readonly ArchiveEntry[]): number {
  let chars = 0
  for (const entry of entries) chars += entry.name.length
  return 4 * chars + 1024 * entries.length
}

/** At most about 160 MB: a listing of 100,000 entries (about 110 MB) is kept, and paged from memory. */
const recentTrees = new RecentListings(160 * 1024 * 1024)

function noSuchPath(): never {
  throw new AppError(GenericErrors.invalid_argument, { description: 'path names no folder of the archive', metadata: { field: 'path' } })
}
