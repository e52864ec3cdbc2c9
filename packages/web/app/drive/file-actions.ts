import { type DriveFile, FOLDER_KIND } from '@cumulus/protocol'

/** What can be done to files from a menu, the toolbar or a key. */
export type FileAction = 'open' | 'reveal' | 'archive' | 'download' | 'share' | 'rename' | 'move' | 'copy' | 'star' | 'unstar' | 'trash' | 'restore' | 'delete'

/** The drive's views; `search` lists results of a query from every folder. */
export type DriveView = 'folder' | 'starred' | 'trash' | 'search'

/**
 * The actions offered for `targets` in a view, in menu order. The trash offers only restore and
 * delete forever; elsewhere, what needs one item (open, rename) appears for one item only, and
 * download for files only (a folder has no content link). An archive also offers "Unpack…",
 * which opens the archive page: its contents to choose from, then the unpacking. A search result
 * also offers "Show in folder", which opens the folder it is in with it selected. Files and
 * folders, one or many, can be shared as one link (never from the trash: the server refuses a
 * trashed item).
 */
export function actionsFor(targets: readonly DriveFile[], view: DriveView): FileAction[] {
  if (targets.length === 0) return []
  if (view === 'trash') return ['restore', 'delete']
  const single = targets.length === 1
  const actions: FileAction[] = []
  if (single) actions.push('open')
  if (single && view === 'search') actions.push('reveal')
  if (single && targets[0]!.file_category === 'ARCHIVE' && targets[0]!.kind !== FOLDER_KIND) actions.push('archive')
  if (targets.every((file) => file.kind !== FOLDER_KIND)) actions.push('download')
  actions.push('share')
  if (single) actions.push('rename')
  actions.push('move', 'copy')
  actions.push(targets.every((file) => file.starred) ? 'unstar' : 'star')
  actions.push('trash')
  return actions
}

/** The ids, split into groups a batch call accepts (a "select all" over a huge folder stays within the body limit). */
export function inBatches(ids: readonly string[], size = 500): string[][] {
  const batches: string[][] = []
  for (let index = 0; index < ids.length; index += size) batches.push(ids.slice(index, index + size))
  return batches
}

/** Runs one batch call per `inBatches` slice of the files' ids, one after another. */
export async function inEachBatch(files: readonly DriveFile[], call: (ids: string[]) => Promise<unknown>): Promise<void> {
  for (const batch of inBatches(files.map((file) => file.id))) await call(batch)
}

/** What a key press in the list or the grid may do to files. */
export interface FileKeyTargets {
  /** The item holding the keyboard focus. */
  focused: DriveFile | undefined
  selected(): DriveFile[]
  view: DriveView
  onOpen(file: DriveFile): void
  onAction(action: FileAction, targets: DriveFile[]): void
}

/**
 * The keys the list and the grid share: Enter opens, Delete (Cmd+Backspace) trashes, or deletes
 * in the trash, F2 renames. True when the key was one of them and acted (its default prevented).
 */
export function fileKeyAction(event: { key: string; metaKey: boolean; preventDefault(): void }, targets: FileKeyTargets): boolean {
  const { focused, view } = targets
  if (event.key === 'Enter' && focused) {
    event.preventDefault()
    targets.onOpen(focused)
    return true
  }
  if (event.key === 'Delete' || (event.key === 'Backspace' && event.metaKey)) {
    const selected = targets.selected()
    if (selected.length === 0) return false
    event.preventDefault()
    targets.onAction(view === 'trash' ? 'delete' : 'trash', selected)
    return true
  }
  if (event.key === 'F2' && view !== 'trash' && focused) {
    event.preventDefault()
    targets.onAction('rename', [focused])
    return true
  }
  return false
}
