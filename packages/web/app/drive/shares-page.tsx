import { type DriveShare, FOLDER_KIND } from '@cumulus/protocol'
import { useId, useRef, useState } from 'react'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'
import { PageTitle } from '../components/page-title'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { Spinner } from '../components/ui/spinner'
import { ConfirmDialog } from './confirm-dialog'
import { copyText } from './copy-text'
import type { DriveApi } from './drive-api'
import { DriveNav } from './drive-nav'
import { inBatches } from './file-actions'
import { DriveSkeleton, SkeletonRows } from './drive-skeleton'
import { formatDateTime } from './format'
import { CloseIcon, CopyIcon, DownloadIcon, ExternalLinkIcon, EyeIcon, FileKindIcon, fileKind, FolderPlusIcon, KeyIcon, ShareIcon, TrashIcon } from './icons'
import { useSiteHeaderHeight } from './layout-hooks'
import { QuotaBar, useQuota } from './quota-bar'
import { formatTimeLeft, shareExpiry } from './share-expiry'
import { Toasts, useToasts } from './toasts'
import { useErrorText } from './use-error-text'
import { usePlural } from './use-plural'
import { useShareList } from './use-share-list'

/** What the server renders for My shares and the browser shows until the drive client is ready. */
export function SharesHydrateFallback() {
  const { t } = useT()
  return (
    <>
      <PageTitle title={t('drive.share.page.title')} description={t('drive.share.page.description')} />
      <DriveSkeleton label={t('drive.share.page.loading')} />
    </>
  )
}

/** The most shares one cancel call names (the server's SHARE_DELETE_MAX_IDS is 1000). */
const SHARE_CANCEL_BATCH = 500

const smallButton =
  'inline-flex h-9 shrink-0 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-500 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white'

/**
 * My shares (`/drive/shares`): the links the account made, newest first, each with what it
 * shares, when it was made and when it expires, its pass code and how often it was viewed, saved
 * and downloaded; its text to copy, the link to open, and cancelling (one, or those selected,
 * behind a confirmation). Expired and broken shares say so with the server's words.
 */
export function SharesPage({ api }: { api: DriveApi }) {
  const { t } = useT()
  const tp = usePlural()
  const list = useShareList(api)
  const listError = useErrorText(list.error)
  const quota = useQuota(api)
  const toasts = useToasts()
  const siteHeader = useSiteHeaderHeight()
  const heading = useRef<HTMLHeadingElement>(null)
  const focusHeading = useRef(false)
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set())
  const [cancelling, setCancelling] = useState<readonly DriveShare[] | null>(null)

  const shares = list.shares
  const chosen = shares.filter((share) => selected.has(share.share_id))
  const allChosen = shares.length > 0 && chosen.length === shares.length
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current)
      if (!next.delete(id)) next.add(id)
      return next
    })

  async function copyShare(share: DriveShare) {
    const copied = await copyText(share.share_text)
    if (copied) toasts.show({ tone: 'success', text: share.pass_code ? t('drive.share.list.copiedWithCode') : t('drive.share.list.copied') })
    else toasts.show({ tone: 'error', text: t('drive.share.created.copyFailed') })
  }

  async function cancelShares(targets: readonly DriveShare[]) {
    const ids = targets.map((share) => share.share_id)
    for (const batch of inBatches(ids, SHARE_CANCEL_BATCH)) await api.deleteShares(batch)
    list.remove(ids)
    focusHeading.current = true
    setSelected((current) => new Set([...current].filter((id) => !ids.includes(id))))
    toasts.show({ tone: 'success', text: targets.length === 1 ? t('drive.share.list.cancelledOne', { name: targets[0]!.title }) : tp('drive.share.list.cancelledMany', targets.length) })
  }

  let content
  if (list.loading) {
    content = <SkeletonRows label={t('drive.share.page.loading')} />
  } else if (list.error && shares.length === 0) {
    content = (
      <div className="px-3 py-6 sm:px-0">
        <Alert tone="error">
          <p className="font-semibold">{t('drive.share.page.loadFailed')}</p>
          {listError ? <p className="mt-1">{listError}</p> : null}
        </Alert>
        <Button variant="secondary" className="mt-4" onClick={list.reload}>
          {t('drive.list.retry')}
        </Button>
      </div>
    )
  } else if (shares.length === 0) {
    content = (
      <div className="mx-3 mt-4 flex flex-col items-center rounded-3xl border-2 border-dashed border-slate-200 px-6 py-16 text-center sm:mx-0 dark:border-slate-800" data-testid="shares-empty">
        <span className="inline-flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-900/40 dark:text-brand-300" aria-hidden="true">
          <ShareIcon className="size-8" />
        </span>
        <p className="mt-5 text-lg font-semibold text-slate-900 dark:text-white">{t('drive.share.page.emptyTitle')}</p>
        <p className="mt-1.5 max-w-sm text-sm text-slate-600 dark:text-slate-300">{t('drive.share.page.emptyText')}</p>
        <LocaleLink page="drive" className="mt-6 inline-flex h-11 items-center rounded-xl bg-brand-600 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500">
          {t('drive.share.page.toDrive')}
        </LocaleLink>
      </div>
    )
  } else {
    content = (
      <>
        <ul aria-label={t('drive.share.page.listLabel')} className="divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800" data-testid="share-list">
          {shares.map((share) => (
            <ShareRow key={share.share_id} share={share} selected={selected.has(share.share_id)} onToggle={() => toggle(share.share_id)} onCopy={() => void copyShare(share)} onCancel={() => setCancelling([share])} />
          ))}
        </ul>
        {list.loadingMore ? (
          <div role="status" className="flex items-center justify-center gap-2 py-4 text-sm text-slate-500 dark:text-slate-400">
            <Spinner className="size-4" />
            {t('drive.share.page.loadingMore')}
          </div>
        ) : !list.complete ? (
          <div className="flex justify-center py-4">
            <Button variant="secondary" onClick={list.loadMore}>
              {t('drive.share.page.showMore')}
            </Button>
          </div>
        ) : null}
        {list.error ? (
          <p role="alert" className="px-3 py-2 text-sm text-red-700 sm:px-0 dark:text-red-300">
            {listError ?? t('drive.share.page.loadFailed')}
          </p>
        ) : null}
      </>
    )
  }

  return (
    <div className="mx-auto flex w-full max-w-[90rem] gap-6 sm:px-4 lg:px-6" data-testid="shares-page">
      <PageTitle title={t('drive.share.page.title')} description={t('drive.share.page.description')} />
      <aside className="hidden w-60 shrink-0 lg:block">
        <div className="sticky space-y-6 pt-4" style={{ top: siteHeader }}>
          <DriveNav current="shares" layout="column" />
          <QuotaBar about={quota.about} className="px-4" />
        </div>
      </aside>
      <div className="min-w-0 flex-1 pb-32">
        <div className="lg:hidden">
          <DriveNav current="shares" layout="row" />
        </div>
        <div className="px-2 pt-1 sm:px-0">
          <div className="flex h-14 items-center gap-2">
            <h1 ref={heading} tabIndex={-1} className="flex min-w-0 items-center gap-2 px-2 text-lg font-semibold tracking-tight text-slate-900 outline-none dark:text-white">
              <ShareIcon className="size-5 shrink-0 text-brand-600 dark:text-brand-300" />
              <span className="truncate">{t('drive.share.page.title')}</span>
            </h1>
          </div>
          {chosen.length > 0 ? (
            <div role="toolbar" aria-label={t('drive.share.page.selectionLabel')} className="flex h-12 items-center gap-1 rounded-2xl bg-brand-50 px-1.5 dark:bg-brand-900/40" data-testid="share-selection-bar">
              <button type="button" onClick={() => setSelected(new Set())} aria-label={t('drive.toolbar.clearSelection')} className="inline-flex size-9 shrink-0 items-center justify-center rounded-xl text-slate-600 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-slate-300 dark:hover:bg-brand-800/60">
                <CloseIcon />
              </button>
              <p className="min-w-0 flex-1 truncate px-1 text-sm font-semibold text-brand-900 dark:text-brand-100" aria-live="polite">
                {tp('drive.selection.count', chosen.length)}
              </p>
              <button type="button" onClick={() => setCancelling(chosen)} className={`${smallButton} text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950/50`} data-testid="cancel-selected">
                <TrashIcon className="size-4" />
                {tp('drive.share.list.cancelSelected', chosen.length)}
              </button>
            </div>
          ) : (
            <div className="flex h-12 items-center gap-3 px-2">
              {shares.length > 0 ? (
                <label className="flex min-h-11 cursor-pointer items-center gap-2.5 text-sm text-slate-700 dark:text-slate-200">
                  <input type="checkbox" checked={allChosen} onChange={() => setSelected(allChosen ? new Set() : new Set(shares.map((share) => share.share_id)))} className="size-4 accent-brand-600" data-testid="select-all-shares" />
                  {t('drive.toolbar.selectAll')}
                </label>
              ) : null}
              <p className="min-w-0 flex-1 text-right text-xs text-slate-500 sm:text-sm dark:text-slate-400" data-testid="share-count">
                {list.complete && shares.length > 0 ? tp('drive.share.list.count', shares.length) : ''}
              </p>
            </div>
          )}
        </div>
        {content}
      </div>

      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => !open && setCancelling(null)}
        title={cancelling === null ? '' : cancelling.length === 1 ? t('drive.share.list.confirmTitleOne', { name: cancelling[0]!.title }) : tp('drive.share.list.confirmTitleMany', cancelling.length)}
        text={t('drive.share.list.confirmText')}
        confirmLabel={cancelling ? tp('drive.share.list.cancelSelected', cancelling.length) : ''}
        dismissLabel={t('drive.share.list.keep')}
        onConfirm={() => (cancelling ? cancelShares(cancelling) : Promise.resolve())}
        onCloseAutoFocus={(event) => {
          // The rows (and the button that opened the dialog) are gone: the page's heading takes the focus.
          if (!focusHeading.current) return
          focusHeading.current = false
          event.preventDefault()
          heading.current?.focus({ preventScroll: true })
        }}
      />
      <Toasts toasts={toasts.toasts} onDismiss={toasts.dismiss} />
    </div>
  )
}

/** One share: what, when, until when, the pass code, the counts and what can be done to it. */
function ShareRow({ share, selected, onToggle, onCopy, onCancel }: { share: DriveShare; selected: boolean; onToggle(): void; onCopy(): void; onCancel(): void }) {
  const { t } = useT()
  const tp = usePlural()
  const locale = useLocale()
  const titleId = useId()
  const ok = share.share_status === 'OK'
  const expiry = shareExpiry(share)
  const kind = fileKind({ kind: share.file_kind, file_category: share.file_category, mime_type: '', file_extension: '', name: share.file_kind === FOLDER_KIND ? '' : share.title })
  const items = Number(share.file_num) || 0
  const expiryText =
    expiry.kind === 'never' ? t('drive.share.list.neverExpires') : expiry.kind === 'expired' ? t('drive.share.status.EXPIRED') : t('drive.share.list.expiresIn', { when: formatTimeLeft(expiry, locale) })
  const statusLabel = share.share_status === 'EXPIRED' ? t('drive.share.status.EXPIRED') : share.share_status === 'DELETED' ? t('drive.share.status.DELETED') : t('drive.share.status.other')
  const counts = [
    { key: 'views', Icon: EyeIcon, text: tp('drive.share.list.views', Number(share.view_count) || 0) },
    { key: 'saves', Icon: FolderPlusIcon, text: tp('drive.share.list.saves', Number(share.restore_count) || 0) },
    { key: 'downloads', Icon: DownloadIcon, text: tp('drive.share.list.downloads', Number(share.download_count) || 0) },
  ]
  return (
    <li className={`grid grid-cols-[auto_auto_minmax(0,1fr)] items-start gap-x-3 gap-y-2 px-3 py-3 sm:grid-cols-[auto_auto_minmax(0,1fr)_auto] sm:px-2 ${selected ? 'bg-brand-50/70 dark:bg-brand-900/30' : ''}`} data-testid="share-row" data-id={share.share_id} data-status={share.share_status}>
      <label className="-m-2 flex size-10 cursor-pointer items-center justify-center">
        <input type="checkbox" checked={selected} onChange={onToggle} aria-label={t('drive.share.list.select', { title: share.title })} className="size-4 accent-brand-600" />
      </label>
      <FileKindIcon kind={kind} className={`size-8 ${ok ? '' : 'opacity-60'}`} />
      <div className="min-w-0">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <h2 id={titleId} className="min-w-0 truncate text-sm font-semibold text-slate-900 dark:text-white" title={share.title} data-testid="share-title">
            {share.title}
          </h2>
          {ok ? null : (
            <span className="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/50 dark:text-amber-100" data-testid="share-status">
              {statusLabel}
            </span>
          )}
        </div>
        {ok ? null : <p className="mt-0.5 text-xs text-amber-800 dark:text-amber-200">{share.share_status_text}</p>}
        <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-300">
          {[tp('drive.share.list.items', items), t('drive.share.list.created', { date: formatDateTime(share.create_time, locale) })].join(' · ')}
        </p>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs text-slate-600 dark:text-slate-300">
          <span data-testid="share-expiry" title={share.expiration_at ? formatDateTime(share.expiration_at, locale) : undefined}>
            {expiryText}
          </span>
          {share.pass_code ? (
            <span className="inline-flex items-center gap-1" data-testid="share-pass-code">
              <KeyIcon className="size-3.5" />
              {t('drive.share.list.passCode')} <span className="font-mono font-semibold tracking-wider text-slate-900 dark:text-white">{share.pass_code}</span>
            </span>
          ) : (
            <span>{t('drive.share.list.publicLink')}</span>
          )}
        </p>
        <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600 dark:text-slate-300" aria-label={t('drive.share.list.activity')} data-testid="share-counts">
          {counts.map(({ key, Icon, text }) => (
            <li key={key} className="inline-flex items-center gap-1" data-count={key}>
              <Icon className="size-3.5" />
              {text}
            </li>
          ))}
        </ul>
      </div>
      <div className="col-start-3 -ml-2.5 flex flex-wrap items-center gap-1 sm:col-start-auto sm:ml-0">
        {ok ? (
          <>
            <button type="button" className={smallButton} onClick={onCopy} aria-describedby={titleId}>
              <CopyIcon className="size-4" />
              {t('drive.share.list.copy')}
            </button>
            <a href={share.share_url} target="_blank" rel="noopener noreferrer" className={smallButton} aria-describedby={titleId}>
              <ExternalLinkIcon className="size-4" />
              {t('drive.share.list.open')}
              <span className="sr-only">{t('drive.share.list.newTab')}</span>
            </a>
          </>
        ) : null}
        <button type="button" className={`${smallButton} text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950/50`} onClick={onCancel} aria-describedby={titleId}>
          <TrashIcon className="size-4" />
          {ok ? t('drive.share.list.cancel') : t('drive.share.list.remove')}
        </button>
      </div>
    </li>
  )
}
