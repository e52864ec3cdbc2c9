import type { DriveFile } from '@cumulus/protocol'
import { useEffect, useState } from 'react'
import type { DriveApi } from '../drive-api'
import { isTranscodePending, videoSourcesOf } from './video-sources'

/** While a transcode is queued or running, the detail is read again this often for its progress. */
export const TRANSCODE_POLL_MS = 4000

export type VideoDetail = { status: 'loading' } | { status: 'ready'; file: DriveFile } | { status: 'error'; error: unknown }

/**
 * A video's detail (`GET /drive/v1/files/{id}`: its medias and transcode status), read when it
 * opens and again every few seconds while its HD versions are being made, until they are ready
 * (or failed). A failed read while polling keeps the detail it had and tries again. `refresh`
 * reads it once more (fresh signed links, when the old ones have expired) and resolves with it,
 * or with null when that read failed.
 */
export function useVideoDetail(api: DriveApi, fileId: string, pollMs = TRANSCODE_POLL_MS): [VideoDetail, () => Promise<DriveFile | null>] {
  const [detail, setDetail] = useState<VideoDetail>({ status: 'loading' })
  const [refresh, setRefresh] = useState<() => Promise<DriveFile | null>>(() => async () => null)
  useEffect(() => {
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    let latest: DriveFile | null = null
    const read = () =>
      api.get(fileId).then(
        (file) => {
          if (!live) return null
          latest = file
          setDetail({ status: 'ready', file })
          clearTimeout(timer)
          if (isTranscodePending(videoSourcesOf(file))) timer = setTimeout(read, pollMs)
          return file
        },
        (error: unknown) => {
          if (!live) return null
          clearTimeout(timer)
          if (latest) timer = setTimeout(read, pollMs)
          else setDetail({ status: 'error', error })
          return null
        },
      )
    setDetail({ status: 'loading' })
    setRefresh(() => read)
    void read()
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [api, fileId, pollMs])
  return [detail, refresh]
}
