import type { DriveFile } from '@cumulus/protocol'
import { useMemo, useState } from 'react'
import { EMPTY_SELECTION, reconcile, type SelectionState } from './selection'

/**
 * The list's selection, always in step with the rows it has: when rows leave (trashed, moved
 * away, deleted) they leave the selection in the same render, so nothing drawn from it (the
 * header checkbox, the toolbar's count) is ever a render behind. `resetKey` changes (another
 * folder or view) start over with nothing selected.
 */
export function useDriveSelection(files: readonly DriveFile[], resetKey: string) {
  const ids = useMemo(() => files.map((file) => file.id), [files])
  const [state, setState] = useState<{ selection: SelectionState; ids: readonly string[]; resetKey: string }>({ selection: EMPTY_SELECTION, ids, resetKey })
  let current = state
  // Adjusting state while rendering (React's pattern for state derived from props): React
  // renders again at once, before anything is committed.
  if (state.resetKey !== resetKey) current = { selection: EMPTY_SELECTION, ids, resetKey }
  else if (state.ids !== ids) current = { selection: reconcile(state.selection, state.ids, ids), ids, resetKey }
  if (current !== state) setState(current)
  const { selection } = current

  const setSelection = (next: SelectionState | ((current: SelectionState) => SelectionState)) =>
    setState((previous) => ({ ...previous, selection: typeof next === 'function' ? next(previous.selection) : next }))
  const selectedFiles = useMemo(() => files.filter((file) => selection.selected.has(file.id)), [files, selection.selected])
  return { selection, setSelection, selectedFiles, ids }
}
