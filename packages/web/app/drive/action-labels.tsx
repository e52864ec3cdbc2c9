import { type DriveFile, FOLDER_KIND } from '@cumulus/protocol'
import type { ReactNode } from 'react'
import { useT } from '../i18n/use-locale'
import type { FileAction } from './file-actions'
import { ArchiveIcon, CopyIcon, DownloadIcon, FolderOpenIcon, MoveIcon, PlayIcon, RenameIcon, RestoreIcon, ShareIcon, StarIcon, TrashIcon } from './icons'

const ICONS: Record<FileAction, (cls: string) => ReactNode> = {
  open: (cls) => <PlayIcon className={cls} />,
  reveal: (cls) => <FolderOpenIcon className={cls} />,
  archive: (cls) => <ArchiveIcon className={cls} />,
  download: (cls) => <DownloadIcon className={cls} />,
  share: (cls) => <ShareIcon className={cls} />,
  rename: (cls) => <RenameIcon className={cls} />,
  move: (cls) => <MoveIcon className={cls} />,
  copy: (cls) => <CopyIcon className={cls} />,
  star: (cls) => <StarIcon className={cls} />,
  unstar: (cls) => <StarIcon filled className={cls} />,
  trash: (cls) => <TrashIcon className={cls} />,
  restore: (cls) => <RestoreIcon className={cls} />,
  delete: (cls) => <TrashIcon className={cls} />,
}

/** The icon of an action. */
export function ActionIcon({ action, className = 'size-4' }: { action: FileAction; className?: string }) {
  return <>{ICONS[action](className)}</>
}

/** The label of an action; "open" reads "Open" for a folder and "Preview" for a file. */
export function useActionLabel(): (action: FileAction, targets?: readonly DriveFile[]) => string {
  const { t } = useT()
  return (action, targets = []) => {
    switch (action) {
      case 'open':
        return targets[0]?.kind === FOLDER_KIND ? t('drive.actions.open') : t('drive.actions.preview')
      case 'reveal':
        return t('drive.actions.reveal')
      case 'archive':
        return t('drive.actions.unpack')
      case 'download':
        return t('drive.actions.download')
      case 'share':
        return t('drive.share.action')
      case 'rename':
        return t('drive.actions.rename')
      case 'move':
        return t('drive.actions.move')
      case 'copy':
        return t('drive.actions.copy')
      case 'star':
        return t('drive.actions.star')
      case 'unstar':
        return t('drive.actions.unstar')
      case 'trash':
        return t('drive.actions.trash')
      case 'restore':
        return t('drive.actions.restore')
      case 'delete':
        return t('drive.actions.deleteForever')
    }
  }
}
