import type { DriveFile } from '@cumulus/protocol'
import { useEffect, useState } from 'react'

export type ThumbnailState = 'loading' | 'shown' | 'failed'

/**
 * A file's thumbnail as the list and the grid show it: its link while it may load (null when it
 * has none, or it failed, so the kind's icon stands instead), the load state, and the handlers
 * for the `<img>`. A new link for the same content is the same image; new content starts over.
 */
export function useThumbnail(file: Pick<DriveFile, 'thumbnail_link' | 'hash'>) {
  const [state, setState] = useState<ThumbnailState>('loading')
  useEffect(() => setState('loading'), [file.hash])
  return {
    src: file.thumbnail_link && state !== 'failed' ? file.thumbnail_link : null,
    state,
    onLoad: () => setState('shown'),
    onError: () => setState('failed'),
  }
}
