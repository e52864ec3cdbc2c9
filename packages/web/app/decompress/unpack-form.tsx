import { useEffect, useId, useRef, useState } from 'react'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { type DriveViewState, useDriveCall } from '../drive/drive-request'
import { DriveStateNotice } from '../drive/drive-state-notice'
import { FileName } from '../drive/file-name'
import type { PathStep } from '../drive/folder-path'
import { FileKindIcon } from '../drive/icons'
import { usePlural } from '../drive/use-plural'
import { useT } from '../i18n/use-locale'
import { type ArchiveSelection, unpackFiles } from './archive-selection'
import { FolderChooser } from './folder-chooser'
import { parseUnpackStart, type UnpackStart } from './unpack-replies'

/** Where the files go: a new folder beside the archive (named after it), or a folder the user chose. */
export type UnpackDestination = { kind: 'beside' } | { kind: 'folder'; folder: PathStep }

/** The refusals the page explains in its own words (any other status is named as it is). */
const KNOWN_REFUSALS = ['PASS_WORD_EMPTY', 'PASS_WORD_ERROR', 'NOT_SUPPORTED', 'FILE_TOO_LARGE', 'NEED_MORE_QUOTA'] as const
type KnownRefusal = (typeof KNOWN_REFUSALS)[number]
const isKnownRefusal = (status: string): status is KnownRefusal => (KNOWN_REFUSALS as readonly string[]).includes(status)

/** The password statuses: the page asks for the password again. */
export type PasswordRefusal = 'PASS_WORD_EMPTY' | 'PASS_WORD_ERROR'

export interface UnpackFormProps {
  fileId: string
  /** The password the user gave for the listing ('' for none). */
  password: string
  selection: ArchiveSelection
  onClearSelection(): void
  destination: UnpackDestination
  onDestinationChange(destination: UnpackDestination): void
  /** The server took the unpack: its task to follow. */
  onStarted(taskId: string, fileCount: number | null): void
  onPasswordRefused(status: PasswordRefusal): void
  /** Shown above the form when the user comes back to it (a cancelled unpack). */
  note: string | null
}

/**
 * Under the archive's listing: what is selected (nothing means everything), where to unpack it,
 * and the Unpack button, which calls `POST /decompress/v1/decompress`. A refusal (wrong
 * password, no space, too large) is explained here; an error reply shows as the drive pages
 * show errors.
 */
export function UnpackForm({ fileId, password, selection, onClearSelection, destination, onDestinationChange, onStarted, onPasswordRefused, note }: UnpackFormProps) {
  const { t } = useT()
  const tp = usePlural()
  const { send } = useDriveCall()
  const name = useId()
  const [picking, setPicking] = useState(false)
  const [pickerFailed, setPickerFailed] = useState(false)
  const [sending, setSending] = useState(false)
  const [refusal, setRefusal] = useState<UnpackStart | null>(null)
  const [failure, setFailure] = useState<DriveViewState<unknown> | null>(null)
  const noteRef = useRef<HTMLParagraphElement>(null)
  const count = selection.size

  // Back from a cancelled unpack: the note takes the focus the Cancel button had.
  useEffect(() => {
    if (note) noteRef.current?.focus()
  }, [note])

  async function unpack() {
    setSending(true)
    setRefusal(null)
    setFailure(null)
    const state = await send(
      {
        method: 'POST',
        path: '/decompress/v1/decompress',
        body: {
          file_id: fileId,
          ...(password ? { password } : {}),
          files: unpackFiles(selection),
          default_parent: destination.kind === 'beside',
          parent_id: destination.kind === 'folder' ? destination.folder.id : '',
        },
      },
      parseUnpackStart,
    )
    setSending(false)
    if (state.status !== 'ready') {
      setFailure(state)
      return
    }
    const reply = state.data
    if (reply.status === 'OK') {
      onStarted(reply.taskId, reply.fileCount)
      return
    }
    setRefusal(reply)
    if (reply.status === 'PASS_WORD_EMPTY' || reply.status === 'PASS_WORD_ERROR') onPasswordRefused(reply.status)
  }

  const radio = 'mt-0.5 size-4 shrink-0 accent-brand-600'
  const option = 'flex cursor-pointer items-start gap-3 text-sm text-slate-800 dark:text-slate-100'
  return (
    <div className="space-y-5 border-t border-slate-200 px-5 py-5 dark:border-slate-800" data-testid="unpack-form">
      {note ? (
        <p ref={noteRef} tabIndex={-1} role="status" className="rounded-xl bg-slate-100 px-4 py-3 text-sm text-slate-700 outline-none dark:bg-slate-800 dark:text-slate-200">
          {note}
        </p>
      ) : null}
      <fieldset>
        <legend className="text-sm font-semibold text-slate-900 dark:text-white">{t('drive.unpack.destination.legend')}</legend>
        <div className="mt-3 space-y-3">
          <label className={option}>
            <input type="radio" name={name} className={radio} checked={destination.kind === 'beside' && !picking} onChange={() => onDestinationChange({ kind: 'beside' })} />
            <span className="min-w-0">
              {t('drive.unpack.destination.beside')}
              <span className="block text-xs text-slate-600 dark:text-slate-400">{t('drive.unpack.destination.besideHint')}</span>
            </span>
          </label>
          <label className={option}>
            <input
              type="radio"
              name={name}
              className={radio}
              checked={destination.kind === 'folder' || picking}
              onChange={() => {
                setPickerFailed(false)
                setPicking(true)
              }}
            />
            <span className="min-w-0">{t('drive.unpack.destination.choose')}</span>
          </label>
          {destination.kind === 'folder' ? (
            <div className="ml-7 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700 dark:text-slate-200">
              <span>{t('drive.unpack.destination.chosen')}</span>
              <span className="inline-flex min-w-0 max-w-full items-center gap-1.5 font-medium" data-testid="unpack-folder">
                <FileKindIcon kind="folder" className="size-4" />
                <FileName name={destination.folder.name} />
              </span>
              <Button variant="ghost" className="h-9 px-3" onClick={() => setPicking(true)}>
                {t('drive.unpack.destination.change')}
              </Button>
            </div>
          ) : null}
          <FolderChooser
            open={picking}
            onOpenChange={setPicking}
            onPick={(folder) => onDestinationChange({ kind: 'folder', folder })}
            onFailed={() => setPickerFailed(true)}
          />
          {pickerFailed ? <Alert tone="error">{t('drive.unpack.destination.loadFailed')}</Alert> : null}
        </div>
      </fieldset>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700 dark:text-slate-200">
          <span aria-live="polite" data-testid="unpack-summary">
            {count === 0 ? t('drive.unpack.nothingSelected') : tp('drive.selection.count', count)}
          </span>
          {count > 0 ? (
            <button type="button" className="font-medium text-brand-700 hover:underline dark:text-brand-300" onClick={onClearSelection}>
              {t('drive.toolbar.clearSelection')}
            </button>
          ) : null}
        </p>
        <Button className="shrink-0" loading={sending} onClick={() => void unpack()}>
          {count === 0 ? t('drive.unpack.unpackAll') : tp('drive.unpack.unpackSelected', count)}
        </Button>
      </div>
      {refusal ? <Alert tone="error">{isKnownRefusal(refusal.status) ? t(`drive.unpack.refused.${refusal.status}`) : t('drive.unpack.refused.other', { status: refusal.status })}</Alert> : null}
      {failure ? (
        <div className="-mx-4 sm:-mx-6">
          <DriveStateNotice state={failure} loadingText="" unavailableText={t('drive.unpack.unavailable')} notFoundText={t('pages.decompress.notFound')} />
        </div>
      ) : null}
    </div>
  )
}
