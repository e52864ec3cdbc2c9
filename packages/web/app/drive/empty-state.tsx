import { useT } from '../i18n/use-locale'
import { Button } from '../components/ui/button'
import type { DriveView } from './file-actions'
import { FileUploadIcon, FolderUploadIcon, StarIcon, TrashIcon, UploadIcon } from './icons'

/** What an empty folder, Starred or Trash says; an empty folder offers the upload buttons. */
export function EmptyState({ view, onUploadFiles, onUploadFolder }: { view: DriveView; onUploadFiles(): void; onUploadFolder(): void }) {
  const { t } = useT()
  const texts =
    view === 'starred'
      ? { title: t('drive.empty.starredTitle'), text: t('drive.empty.starredText') }
      : view === 'trash'
        ? { title: t('drive.empty.trashTitle'), text: t('drive.empty.trashText') }
        : { title: t('drive.empty.folderTitle'), text: t('drive.empty.folderText') }
  return (
    <div className="mx-3 mt-4 flex flex-col items-center rounded-3xl border-2 border-dashed border-slate-200 px-6 py-16 text-center sm:mx-0 dark:border-slate-800" data-testid="drive-empty">
      <span className="inline-flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-900/40 dark:text-brand-300" aria-hidden="true">
        {view === 'starred' ? <StarIcon className="size-8" /> : view === 'trash' ? <TrashIcon className="size-8" /> : <UploadIcon className="size-8" />}
      </span>
      <p className="mt-5 text-lg font-semibold text-slate-900 dark:text-white">{texts.title}</p>
      <p className="mt-1.5 max-w-sm text-sm text-slate-600 dark:text-slate-300">{texts.text}</p>
      {view === 'folder' ? (
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          <Button variant="secondary" onClick={onUploadFiles}>
            <FileUploadIcon />
            {t('drive.toolbar.uploadFiles')}
          </Button>
          <Button variant="secondary" onClick={onUploadFolder}>
            <FolderUploadIcon />
            {t('drive.toolbar.uploadFolder')}
          </Button>
        </div>
      ) : null}
    </div>
  )
}
