import type { DriveFile } from '@cumulus/protocol'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { DriveApi } from './drive-api'
import { belongsTo, fetchListingPage, insertFile, type ListingOrder, type ListingSource, replaceResult } from './listing'

export interface ListingState {
  files: readonly DriveFile[]
  /** First page on its way (nothing to show yet). */
  loading: boolean
  /** A later page on its way. */
  loadingMore: boolean
  /** Every page is here. */
  complete: boolean
  /** The last call's failure (the first page's, or the latest page's). */
  error: unknown
}

const INITIAL: ListingState = { files: [], loading: true, loadingMore: false, complete: false, error: null }

export interface Listing extends ListingState {
  /** Fetches the next page unless one is on its way or all are here. */
  loadMore(): void
  /** Starts again from the first page. */
  reload(): void
  /** Shows a new or changed file where it belongs (or drops it when it no longer belongs here). */
  put(file: DriveFile): void
  /** Takes files off the list (trashed, moved away, deleted). */
  remove(ids: readonly string[]): void
}

/**
 * A source's files, a page at a time (cursor paging, drive.md), for a list that asks for more as
 * the user scrolls. Local changes (`put`, `remove`) keep the list right without reloading pages
 * already seen, which a folder of 100,000 files could not afford after every rename.
 */
export function useListing(api: DriveApi, source: ListingSource, order: ListingOrder): Listing {
  const key = `${JSON.stringify(source)}|${order.field}|${order.direction}`
  // Which source and order the state is about: in the render after they change, before the first
  // page is asked for, the state still holds the previous list, which must not pass for this one.
  const [state, setState] = useState<ListingState & { key: string }>(() => ({ ...INITIAL, key }))
  const keyRef = useRef(key)
  keyRef.current = key
  const token = useRef('')
  // Answers to an older source or order are dropped: each load has its generation.
  const generation = useRef(0)
  const inFlight = useRef(false)
  const sourceRef = useRef(source)
  sourceRef.current = source
  const orderRef = useRef(order)
  orderRef.current = order

  const fetchPage = useCallback(
    (first: boolean) => {
      if (inFlight.current && !first) return
      const mine = first ? ++generation.current : generation.current
      inFlight.current = true
      if (first) token.current = ''
      setState((current) => (first ? { ...INITIAL, key: keyRef.current } : { ...current, loadingMore: true, error: null }))
      fetchListingPage(api, sourceRef.current, orderRef.current, first ? undefined : token.current).then(
        (page) => {
          if (mine !== generation.current) return
          inFlight.current = false
          token.current = page.next_page_token
          setState((current) => {
            const seen = new Set(first ? [] : current.files.map((f) => f.id))
            const added = page.files.filter((f) => !seen.has(f.id))
            return { key: current.key, files: first ? added : [...current.files, ...added], loading: false, loadingMore: false, complete: page.next_page_token === '', error: null }
          })
        },
        (error: unknown) => {
          if (mine !== generation.current) return
          inFlight.current = false
          setState((current) => ({ ...current, loading: false, loadingMore: false, error }))
        },
      )
    },
    [api],
  )

  useEffect(() => {
    fetchPage(true)
    return () => {
      generation.current += 1
      inFlight.current = false
    }
  }, [fetchPage, key])

  const stateRef = useRef(state)
  stateRef.current = state
  const loadMore = useCallback(() => {
    const current = stateRef.current
    if (!current.loading && !current.complete && !current.error && !inFlight.current) fetchPage(false)
  }, [fetchPage])

  const reload = useCallback(() => fetchPage(true), [fetchPage])

  const put = useCallback(
    (file: DriveFile) => {
      setState((current) => {
        if (sourceRef.current.kind === 'search') {
          const files = replaceResult(current.files, file)
          return files === current.files ? current : { ...current, files }
        }
        if (!belongsTo(file, sourceRef.current)) {
          return current.files.some((f) => f.id === file.id) ? { ...current, files: current.files.filter((f) => f.id !== file.id) } : current
        }
        const files = insertFile(current.files, file, orderRef.current, current.complete)
        return files === current.files ? current : { ...current, files }
      })
    },
    [],
  )

  const remove = useCallback((ids: readonly string[]) => {
    const gone = new Set(ids)
    setState((current) => (current.files.some((f) => gone.has(f.id)) ? { ...current, files: current.files.filter((f) => !gone.has(f.id)) } : current))
  }, [])

  const { key: stateKey, ...shown } = state
  return { ...shown, loading: shown.loading || stateKey !== key, loadMore, reload, put, remove }
}
