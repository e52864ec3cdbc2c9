import { type DriveFile, FOLDER_KIND } from '@cumulus/protocol'
import { useEffect, useState } from 'react'
import type { DriveApi } from './drive-api'

/** One step of a folder path; the root has id ''. */
export interface PathStep {
  id: string
  name: string
}

interface KnownFolder {
  name: string
  parentId: string
}

/** Folders seen in lists and gets this visit: a breadcrumb deep in the tree needs no call per level. */
const known = new Map<string, KnownFolder>()

/** Notes a folder's name and parent (from a list, a get, a create or a rename). */
export function rememberFolder(file: Pick<DriveFile, 'id' | 'kind' | 'name' | 'parent_id'>): void {
  if (file.kind === FOLDER_KIND) known.set(file.id, { name: file.name, parentId: file.parent_id })
}

/** Drops a folder (trashed, deleted) so its path is read again. */
export function forgetFolder(id: string): void {
  known.delete(id)
}

/** How deep a path may go before it is taken for a loop (a server bug must not hang the page). */
const MAX_DEPTH = 256

/**
 * The folders from the root down to `folderId`, both included (the root as `rootName`): each
 * parent read with `get()` unless already known.
 */
export async function folderPath(api: DriveApi, folderId: string, rootName: string): Promise<PathStep[]> {
  const steps: PathStep[] = []
  let id = folderId
  while (id !== '' && steps.length < MAX_DEPTH) {
    let folder = known.get(id)
    if (!folder) {
      const file = await api.get(id)
      rememberFolder(file)
      folder = { name: file.name, parentId: file.parent_id }
    }
    steps.unshift({ id, name: folder.name })
    id = folder.parentId
  }
  steps.unshift({ id: '', name: rootName })
  return steps
}

export type PathState = { status: 'loading'; steps: PathStep[] } | { status: 'ready'; steps: PathStep[] } | { status: 'error'; error: unknown; steps: PathStep[] }

/** `folderPath` for a component; while it loads, the steps already known (at least the root). */
export function useFolderPath(api: DriveApi, folderId: string, rootName: string, version = 0): PathState {
  const [state, setState] = useState<PathState & { key: string }>({ key: '', status: 'loading', steps: [{ id: '', name: rootName }] })
  const key = `${folderId}|${rootName}|${version}`
  useEffect(() => {
    let live = true
    setState((current) => ({ key, status: 'loading', steps: current.steps }))
    folderPath(api, folderId, rootName).then(
      (steps) => live && setState({ key, status: 'ready', steps }),
      (error: unknown) => live && setState({ key, status: 'error', error, steps: [{ id: '', name: rootName }] }),
    )
    return () => {
      live = false
    }
  }, [api, key])
  return state
}
