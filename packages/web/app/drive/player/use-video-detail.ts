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
 * (or failed). A failed read while polling keeps the detail it had and tries again.
 */
export function useVideoDetail(api: DriveApi, fileId: string, pollMs = TRANSCODE_POLL_MS): VideoDetail {
  const [detail, setDetail] = useState<VideoDetail>({ status: 'loading' })
  useEffect(() => {
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    let latest: DriveFile | null = null
    const read = () => {
      api.get(fileId).then(
        (file) => {
          if (!live) return
          latest = file
          setDetail({ status: 'ready', file })
          if (isTranscodePending(videoSourcesOf(file))) timer = setTimeout(read, pollMs)
        },
        (error: unknown) => {
          if (!live) return
          if (latest) timer = setTimeout(read, pollMs)
          else setDetail({ status: 'error', error })
        },
      )
    }
    setDetail({ status: 'loading' })
    read()
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [api, fileId, pollMs])
  return detail
}
