import type { DriveShare } from '@cumulus/protocol'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { DriveApi } from './drive-api'

/** Shares asked for per page of My shares. */
export const SHARE_PAGE_SIZE = 50

export interface ShareList {
  shares: readonly DriveShare[]
  /** The first page is on its way. */
  loading: boolean
  loadingMore: boolean
  /** The last call's failure (the first page's, or a later page's), else null. */
  error: unknown
  /** Every page has been read (`next_page_token` was ''). */
  complete: boolean
  loadMore(): void
  reload(): void
  /** Drops shares from the list (cancelled), without asking the server again. */
  remove(ids: readonly string[]): void
}

/** The account's shares (GET /drive/v1/share/list), newest first, a page at a time. */
export function useShareList(api: Pick<DriveApi, 'listShares'>): ShareList {
  const [shares, setShares] = useState<DriveShare[]>([])
  const [nextPageToken, setNextPageToken] = useState('')
  const [loading, setLoading] = useState(true)
  const [loadingMore, setLoadingMore] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [generation, setGeneration] = useState(0)
  // Replies of an older generation (before a reload) are dropped.
  const current = useRef(0)

  useEffect(() => {
    const mine = ++current.current
    setLoading(true)
    setError(null)
    api.listShares({ limit: SHARE_PAGE_SIZE }).then(
      (reply) => {
        if (current.current !== mine) return
        setShares(reply.data)
        setNextPageToken(reply.next_page_token)
        setLoading(false)
      },
      (err: unknown) => {
        if (current.current !== mine) return
        setError(err)
        setLoading(false)
      },
    )
  }, [api, generation])

  const loadMore = useCallback(() => {
    if (loading || loadingMore || nextPageToken === '') return
    const mine = current.current
    setLoadingMore(true)
    setError(null)
    api.listShares({ limit: SHARE_PAGE_SIZE, pageToken: nextPageToken }).then(
      (reply) => {
        if (current.current !== mine) return
        // A share cancelled meanwhile in another tab may shift a page: never list one twice.
        setShares((known) => [...known, ...reply.data.filter((share) => !known.some((k) => k.share_id === share.share_id))])
        setNextPageToken(reply.next_page_token)
        setLoadingMore(false)
      },
      (err: unknown) => {
        if (current.current !== mine) return
        setError(err)
        setLoadingMore(false)
      },
    )
  }, [api, loading, loadingMore, nextPageToken])

  const reload = useCallback(() => setGeneration((n) => n + 1), [])
  const remove = useCallback((ids: readonly string[]) => setShares((known) => known.filter((share) => !ids.includes(share.share_id))), [])

  return { shares, loading, loadingMore, error, complete: !loading && nextPageToken === '', loadMore, reload, remove }
}
