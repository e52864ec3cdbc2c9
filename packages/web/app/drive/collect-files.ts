/**
 * Files the user handed over (a file input, a folder input, a drop), each with its path inside
 * the folder it came in (`photos/2024/a.jpg`; just the name for a loose file), and the folders
 * seen, so empty ones are created too.
 */
export interface PickedFile {
  file: File
  /** Slash-separated, without a leading slash; the last segment is the file's name. */
  path: string
}

export interface PickedFiles {
  files: PickedFile[]
  /** Every folder path, parents included (`photos`, `photos/2024`), in no particular order. */
  folders: string[]
}

/** The folder paths `a`, `a/b` of `a/b/c.txt`. */
function parentPaths(path: string): string[] {
  const segments = path.split('/').filter(Boolean)
  const out: string[] = []
  for (let depth = 1; depth < segments.length; depth += 1) out.push(segments.slice(0, depth).join('/'))
  return out
}

/**
 * Files from an `<input type=file>`: a folder input (`webkitdirectory`) gives each file's
 * `webkitRelativePath` (`photos/2024/a.jpg`); a plain one gives loose files.
 */
export function pickedFromInput(list: FileList | readonly File[]): PickedFiles {
  const files: PickedFile[] = []
  const folders = new Set<string>()
  for (const file of Array.from(list)) {
    const path = (file.webkitRelativePath || file.name).replace(/^\/+/, '')
    files.push({ file, path })
    for (const folder of parentPaths(path)) folders.add(folder)
  }
  return { files, folders: [...folders] }
}

// The File and Directory Entries API, as much of it as a drop needs (not in TypeScript's DOM lib
// under these names in every version).
interface EntryLike {
  isFile: boolean
  isDirectory: boolean
  name: string
}
interface FileEntryLike extends EntryLike {
  file(success: (file: File) => void, failure?: (error: unknown) => void): void
}
interface DirectoryEntryLike extends EntryLike {
  createReader(): { readEntries(success: (entries: EntryLike[]) => void, failure?: (error: unknown) => void): void }
}

function readFile(entry: FileEntryLike): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject))
}

/** Every entry of a directory: `readEntries` returns them in batches until an empty one. */
async function readAll(entry: DirectoryEntryLike): Promise<EntryLike[]> {
  const reader = entry.createReader()
  const all: EntryLike[] = []
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject))
    if (batch.length === 0) return all
    all.push(...batch)
  }
}

async function walk(entry: EntryLike, prefix: string, out: PickedFiles): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name
  if (entry.isFile) {
    out.files.push({ file: await readFile(entry as FileEntryLike), path })
  } else if (entry.isDirectory) {
    out.folders.push(path)
    for (const child of await readAll(entry as DirectoryEntryLike)) await walk(child, path, out)
  }
}

/**
 * Files and folders dropped on the page. Folders are walked with `webkitGetAsEntry` (the only
 * way a drop reveals a folder's contents); a browser without it gives the loose files only.
 * The items must be read during the drop event, so the entries are taken before any await.
 */
export async function pickedFromDrop(transfer: DataTransfer): Promise<PickedFiles> {
  const items = Array.from(transfer.items ?? []).filter((item) => item.kind === 'file')
  const entries = items.map((item) => (typeof item.webkitGetAsEntry === 'function' ? (item.webkitGetAsEntry() as EntryLike | null) : null))
  if (entries.length === 0 || entries.some((entry) => entry === null)) return pickedFromInput(transfer.files)
  const out: PickedFiles = { files: [], folders: [] }
  for (const entry of entries) await walk(entry!, '', out)
  return out
}

/** Whether a drag carries files (not text or a link dragged from the page). */
export function dragHasFiles(transfer: DataTransfer | null): boolean {
  return !!transfer && Array.from(transfer.types ?? []).includes('Files')
}
