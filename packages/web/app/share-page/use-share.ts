import type { DriveFile, ShareInfoReply, ShareStatus } from '@cumulus/protocol'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useLocale } from '../i18n/use-locale'
import { forgetPassCodeToken, findPassCodeToken, keepPassCodeToken } from './pass-code-token'
import { formatFolderPath } from './folder-path'
import type { LoadShareApi, SharePageApi } from './share-api'

/** What the page shows of the share as a whole. */
export type ShareView =
  | { kind: 'loading' }
  /** The share wants its pass code; `error` is the server's text after a wrong code (or too many). */
  | { kind: 'pass-code'; error: string | null }
  /** Deleted, expired, not found or blocked: the server's own text says which. */
  | { kind: 'unavailable'; status: ShareStatus; text: string }
  /** The call itself failed (offline, a server error). */
  | { kind: 'failed'; error: unknown }
  | { kind: 'open'; info: ShareInfoReply; passCodeToken: string | undefined }

/** A folder inside the share, on the way from its top level to where the visitor is. */
export interface ShareFolder {
  id: string
  name: string
}

/** One folder's items as far as they have been listed. */
export type ShareListing =
  | { status: 'loading' }
  | { status: 'ready'; files: DriveFile[]; nextPageToken: string; listedAt: number; loadingMore: boolean; moreError: unknown }
  | { status: 'failed'; error: unknown }

export interface ShareBrowser {
  view: ShareView
  /** A pass code is being checked (the form's button is busy). */
  checkingPassCode: boolean
  /** The folders from the share's top level down to the one listed; [] at the top. */
  path: readonly ShareFolder[]
  listing: ShareListing
  submitPassCode(passCode: string): void
  /** Opens a folder of the current listing, or goes back up to `path[depth - 1]` (0: the top). */
  openFolder(folder: ShareFolder): void
  goUp(depth: number): void
  loadMore(): void
  /** Tries the failed call again. */
  retry(): void
  /** A later call found the share gone (cancelled or expired meanwhile). */
  showUnavailable(status: ShareStatus, text: string): void
  api: SharePageApi | null
}

const UNAVAILABLE: ReadonlySet<ShareStatus> = new Set(['DELETED', 'EXPIRED', 'NOT_FOUND', 'SENSITIVE_RESOURCE'])

/** Where the visitor is, as the page's address says, and the way to move (the page owns the address). */
export interface ShareLocation {
  /** The folder ids from the share's top level down to the folder to list; [] at the top. */
  folderIds: readonly string[]
  /** Moves to other folders: a new history entry, or in place of this one (`replace`). */
  goTo(folderIds: readonly string[], options?: { replace?: boolean }): void
}

/**
 * Opens a share and browses it (drive.md "Shares"). On arrival: with a pass-code token kept
 * from earlier in this tab, the token; else the `initialPassCode` from the link (`?pwd=`), if
 * any. A code is given once: the token the server answers with is kept (pass-code-token.ts) and
 * sent with every later call. `onOpened(usedPassCode)` runs when the share opened.
 *
 * The folder listed is the one the address names (`location`): opening a folder or a breadcrumb
 * moves the address, and the browser's Back goes back up. So a reload, a copied address or a
 * return from signing in (to save) comes back to the same folder. An address's folders are
 * checked with the server (each inside the share, each inside the one before) and named from
 * its answers; a path that does not hold opens the share's top level instead.
 */
export function useShare(shareId: string, loadApi: LoadShareApi, initialPassCode: string | null, onOpened: (usedPassCode: boolean) => void, location: ShareLocation): ShareBrowser {
  const locale = useLocale()
  const [view, setView] = useState<ShareView>({ kind: 'loading' })
  const [checkingPassCode, setCheckingPassCode] = useState(false)
  const [path, setPath] = useState<readonly ShareFolder[]>([])
  const [listing, setListing] = useState<ShareListing>({ status: 'loading' })
  const [api, setApi] = useState<SharePageApi | null>(null)
  // The top level's listing, kept to go back to without opening the share again (which counts a view).
  const top = useRef<ShareListing>({ status: 'loading' })
  // Only the newest listing request may land (a quick second click on another folder).
  const generation = useRef(0)
  const opened = useRef(onOpened)
  opened.current = onOpened
  const goTo = useRef(location.goTo)
  goTo.current = location.goTo
  const folderIds = useRef(location.folderIds)
  folderIds.current = location.folderIds
  // Folders met in listings (or asked for): their names, for the breadcrumbs of an address's
  // path, and the folder each is in ('' for the share's top level), to check such a path.
  const known = useRef(new Map<string, { name: string; parent: string }>())

  const open = useCallback(
    async (passCode: string | undefined) => {
      const token = passCode === undefined ? findPassCodeToken(shareId) : undefined
      try {
        const client = await loadApi(locale)
        setApi(client)
        const reply = await client.openShare({ shareId, ...(passCode !== undefined ? { passCode } : {}), ...(token ? { passCodeToken: token } : {}) })
        switch (reply.share_status) {
          case 'OK': {
            const kept = reply.pass_code_token || token
            if (reply.pass_code_token) keepPassCodeToken(shareId, reply.pass_code_token)
            const ready: ShareListing = { status: 'ready', files: reply.files, nextPageToken: reply.next_page_token, listedAt: Date.now(), loadingMore: false, moreError: null }
            top.current = ready
            setPath([])
            // An address inside a folder lists that folder next (the effect below): no flash of the top level first.
            setListing(folderIds.current.length > 0 ? { status: 'loading' } : ready)
            setView({ kind: 'open', info: reply, passCodeToken: kept || undefined })
            opened.current(passCode !== undefined)
            return
          }
          case 'PASS_CODE_EMPTY':
          case 'PASS_CODE_ERROR':
            // A kept token the server no longer takes is dropped; the visitor is asked again.
            if (token) forgetPassCodeToken(shareId)
            setView({ kind: 'pass-code', error: reply.share_status === 'PASS_CODE_ERROR' && passCode !== undefined ? reply.share_status_text : null })
            return
          default:
            forgetPassCodeToken(shareId)
            setView({ kind: 'unavailable', status: reply.share_status, text: reply.share_status_text })
        }
      } catch (error) {
        setView({ kind: 'failed', error })
      }
    },
    [shareId, loadApi, locale],
  )

  useEffect(() => {
    void open(findPassCodeToken(shareId) || !initialPassCode ? undefined : initialPassCode)
    // Once per share: later codes come from the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shareId])

  const passCodeToken = view.kind === 'open' ? view.passCodeToken : undefined

  /** Lists a folder (a page of it after `pageToken`); null `folder` is the top level. */
  const list = useCallback(
    async (folder: ShareFolder | null, pageToken: string | undefined) => {
      if (!api) throw new Error('the share is not open')
      if (folder === null) {
        const reply = await api.openShare({ shareId, ...(passCodeToken ? { passCodeToken } : {}), ...(pageToken ? { pageToken } : {}) })
        return reply
      }
      return api.shareFolder({ shareId, parentId: folder.id, ...(passCodeToken ? { passCodeToken } : {}), ...(pageToken ? { pageToken } : {}) })
    },
    [api, shareId, passCodeToken],
  )

  const showUnavailable = useCallback(
    (status: ShareStatus, text: string) => {
      if (status === 'PASS_CODE_EMPTY' || status === 'PASS_CODE_ERROR') {
        forgetPassCodeToken(shareId)
        setView({ kind: 'pass-code', error: null })
        return
      }
      forgetPassCodeToken(shareId)
      setView({ kind: 'unavailable', status, text })
    },
    [shareId],
  )

  /** The folders `ids` names, with their names: known ones from listings, others asked for; null when the chain does not hold. */
  const resolvePath = useCallback(
    async (ids: readonly string[]): Promise<ShareFolder[] | null> => {
      if (!api) throw new Error('the share is not open')
      const asked = await Promise.all(
        ids.map((id) => (known.current.has(id) ? null : api.shareFile({ shareId, fileId: id, ...(passCodeToken ? { passCodeToken } : {}) }))),
      )
      const path: ShareFolder[] = []
      for (const [index, id] of ids.entries()) {
        const reply = asked[index]
        if (reply) {
          const file = reply.share_status === 'OK' ? reply.file_info : null
          if (!file || file.kind !== 'drive#folder') return null
          known.current.set(id, { name: file.name, parent: file.parent_id })
        }
        const folder = known.current.get(id)!
        // Each a folder of the share, at its top or inside the folder before it.
        if (folder.parent !== (index === 0 ? '' : ids[index - 1])) return null
        path.push({ id, name: folder.name })
      }
      return path
    },
    [api, shareId, passCodeToken],
  )

  const showFolder = useCallback(
    async (ids: readonly string[]) => {
      const run = ++generation.current
      if (ids.length === 0 && top.current.status === 'ready') {
        setPath([])
        setListing(top.current)
        return
      }
      setListing({ status: 'loading' })
      try {
        const path = await resolvePath(ids)
        if (run !== generation.current) return
        if (path === null) {
          // Not a path of this share (any more): its top level, in place of the address.
          goTo.current([], { replace: true })
          return
        }
        setPath(path)
        const folder = path.at(-1) ?? null
        const reply = await list(folder, undefined)
        if (run !== generation.current) return
        if (reply.share_status !== 'OK') return showUnavailable(reply.share_status, reply.share_status_text)
        const ready: ShareListing = { status: 'ready', files: reply.files, nextPageToken: reply.next_page_token, listedAt: Date.now(), loadingMore: false, moreError: null }
        if (folder === null) top.current = ready
        setListing(ready)
      } catch (error) {
        if (run === generation.current) setListing({ status: 'failed', error })
      }
    },
    [list, resolvePath, showUnavailable],
  )

  // The address names the folder: list it once the share is open, and whenever the address moves.
  const isOpen = view.kind === 'open' && api !== null
  const folderKey = formatFolderPath(location.folderIds)
  useEffect(() => {
    if (isOpen) void showFolder(folderIds.current)
    // showFolder changes with the pass-code token, which changes only as the share opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isOpen, folderKey])

  const loadMore = useCallback(() => {
    if (listing.status !== 'ready' || listing.nextPageToken === '' || listing.loadingMore) return
    const run = generation.current
    const folder = path.at(-1) ?? null
    const before = listing
    setListing({ ...before, loadingMore: true, moreError: null })
    list(folder, before.nextPageToken).then(
      (reply) => {
        if (run !== generation.current) return
        if (reply.share_status !== 'OK') return showUnavailable(reply.share_status, reply.share_status_text)
        const ready: ShareListing = { status: 'ready', files: [...before.files, ...reply.files], nextPageToken: reply.next_page_token, listedAt: Date.now(), loadingMore: false, moreError: null }
        if (folder === null) top.current = ready
        setListing(ready)
      },
      (error: unknown) => {
        if (run === generation.current) setListing({ ...before, loadingMore: false, moreError: error })
      },
    )
  }, [listing, path, list, showUnavailable])

  const submitPassCode = useCallback(
    (passCode: string) => {
      setCheckingPassCode(true)
      void open(passCode).finally(() => setCheckingPassCode(false))
    },
    [open],
  )

  return {
    view,
    checkingPassCode,
    path,
    listing,
    submitPassCode,
    openFolder: (folder) => {
      known.current.set(folder.id, { name: folder.name, parent: path.at(-1)?.id ?? '' })
      goTo.current([...path.map((f) => f.id), folder.id])
    },
    goUp: (depth) => goTo.current(path.slice(0, depth).map((f) => f.id)),
    loadMore,
    retry: () => {
      if (view.kind === 'open') void showFolder(location.folderIds)
      else {
        setView({ kind: 'loading' })
        void open(undefined)
      }
    },
    showUnavailable,
    api,
  }
}

export { UNAVAILABLE as UNAVAILABLE_STATUSES }
