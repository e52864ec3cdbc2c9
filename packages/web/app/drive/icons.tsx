import { type DriveFile, FOLDER_KIND } from '@cumulus/protocol'
import type { ReactNode, SVGProps } from 'react'

/** A 24×24 stroke icon; decorative (the control it sits in carries the name). */
function Icon({ children, className = 'size-5', ...props }: SVGProps<SVGSVGElement> & { children: ReactNode }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className={className} {...props}>
      {children}
    </svg>
  )
}

type P = { className?: string }

export const PlusIcon = (p: P) => <Icon {...p}><path d="M12 5v14M5 12h14" /></Icon>
export const UploadIcon = (p: P) => <Icon {...p}><path d="M12 16V4m0 0-4.5 4.5M12 4l4.5 4.5M4 16v2.5A1.5 1.5 0 0 0 5.5 20h13a1.5 1.5 0 0 0 1.5-1.5V16" /></Icon>
export const DownloadIcon = (p: P) => <Icon {...p}><path d="M12 4v12m0 0-4.5-4.5M12 16l4.5-4.5M4 16v2.5A1.5 1.5 0 0 0 5.5 20h13a1.5 1.5 0 0 0 1.5-1.5V16" /></Icon>
export const CloudDownloadIcon = (p: P) => <Icon {...p}><path d="M7 17.5h-.5a4 4 0 0 1-.6-7.96A6 6 0 0 1 17.6 8.6 4.5 4.5 0 0 1 17.5 17.5H17" /><path d="M12 11v9m0 0-2.5-2.5M12 20l2.5-2.5" /></Icon>
export const FolderPlusIcon = (p: P) => <Icon {...p}><path d="M3 7.5A1.5 1.5 0 0 1 4.5 6h4l2 2h9A1.5 1.5 0 0 1 21 9.5v8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" /><path d="M12 11v5m-2.5-2.5h5" /></Icon>
export const FolderUploadIcon = (p: P) => <Icon {...p}><path d="M3 7.5A1.5 1.5 0 0 1 4.5 6h4l2 2h9A1.5 1.5 0 0 1 21 9.5v8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" /><path d="M12 16.5v-5m0 0-2.2 2.2m2.2-2.2 2.2 2.2" /></Icon>
export const FileUploadIcon = (p: P) => <Icon {...p}><path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" /><path d="M14 3v5h5M12 17.5v-6m0 0-2.2 2.2m2.2-2.2 2.2 2.2" /></Icon>
export const StarIcon = ({ filled = false, ...p }: P & { filled?: boolean }) => (
  <Icon {...p} fill={filled ? 'currentColor' : 'none'}>
    <path d="m12 3.5 2.6 5.3 5.8.8-4.2 4.1 1 5.8L12 16.8l-5.2 2.7 1-5.8-4.2-4.1 5.8-.8z" />
  </Icon>
)
export const MoreIcon = (p: P) => <Icon {...p}><circle cx="12" cy="5.5" r="1.3" fill="currentColor" stroke="none" /><circle cx="12" cy="12" r="1.3" fill="currentColor" stroke="none" /><circle cx="12" cy="18.5" r="1.3" fill="currentColor" stroke="none" /></Icon>
export const TrashIcon = (p: P) => <Icon {...p}><path d="M4 7h16M9.5 7V5a1 1 0 0 1 1-1h3a1 1 0 0 1 1 1v2M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M10 11v6m4-6v6" /></Icon>
export const RestoreIcon = (p: P) => <Icon {...p}><path d="M4 12a8 8 0 1 0 2.3-5.6M4 4v4.5h4.5" /></Icon>
export const RenameIcon = (p: P) => <Icon {...p}><path d="M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4" /></Icon>
export const MoveIcon = (p: P) => <Icon {...p}><path d="M3 7.5A1.5 1.5 0 0 1 4.5 6h4l2 2h9A1.5 1.5 0 0 1 21 9.5v8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" /><path d="M9 13.5h6m0 0-2.3-2.3M15 13.5l-2.3 2.3" /></Icon>
export const ArchiveIcon = (p: P) => <Icon {...p}><path d="M4 8h16v10.5a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 18.5zM3 4.5h18V8H3zM10 12h4" /></Icon>
export const FolderOpenIcon = (p: P) => <Icon {...p}><path d="M3 17.5V6.5A1.5 1.5 0 0 1 4.5 5h4l2 2h7A1.5 1.5 0 0 1 19 8.5V10" /><path d="M3 17.5 5.6 11a1.5 1.5 0 0 1 1.4-1h13a1 1 0 0 1 .95 1.3l-2.1 6.3a1.5 1.5 0 0 1-1.4 1.4H4.5A1.5 1.5 0 0 1 3 17.5z" /></Icon>
export const SearchIcon = (p: P) => <Icon {...p}><circle cx="11" cy="11" r="6.5" /><path d="m16 16 4 4" /></Icon>
export const ClockIcon = (p: P) => <Icon {...p}><circle cx="12" cy="12" r="8.5" /><path d="M12 7.5V12l3 2" /></Icon>
export const CopyIcon = (p: P) => <Icon {...p}><rect x="8" y="8" width="12" height="12" rx="2" /><path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2" /></Icon>
export const CloseIcon = (p: P) => <Icon {...p}><path d="M6 6l12 12M18 6 6 18" /></Icon>
export const ChevronRightIcon = (p: P) => <Icon {...p}><path d="m9 6 6 6-6 6" /></Icon>
export const ChevronLeftIcon = (p: P) => <Icon {...p}><path d="m15 6-6 6 6 6" /></Icon>
export const ChevronDownIcon = (p: P) => <Icon {...p}><path d="m6 9 6 6 6-6" /></Icon>
export const ChevronUpIcon = (p: P) => <Icon {...p}><path d="m6 15 6-6 6 6" /></Icon>
export const ArrowUpIcon = (p: P) => <Icon {...p}><path d="M12 19V5m0 0-6 6m6-6 6 6" /></Icon>
export const ArrowDownIcon = (p: P) => <Icon {...p}><path d="M12 5v14m0 0-6-6m6 6 6-6" /></Icon>
export const SortIcon = (p: P) => <Icon {...p}><path d="M7 4v16m0 0-3-3m3 3 3-3M17 20V4m0 0-3 3m3-3 3 3" /></Icon>
export const PauseIcon = (p: P) => <Icon {...p}><path d="M9 5v14M15 5v14" /></Icon>
export const PlayIcon = (p: P) => <Icon {...p}><path d="M7 5v14l12-7z" /></Icon>
export const RetryIcon = (p: P) => <Icon {...p}><path d="M20 12a8 8 0 1 1-2.3-5.6M20 4v4.5h-4.5" /></Icon>
export const CheckIcon = (p: P) => <Icon {...p}><path d="m5 12.5 4.5 4.5L19 7.5" /></Icon>
export const AlertIcon = (p: P) => <Icon {...p}><circle cx="12" cy="12" r="9" /><path d="M12 7.5v5.5M12 16.5v.01" /></Icon>
export const ShareIcon = (p: P) => <Icon {...p}><circle cx="17.5" cy="5.5" r="2.5" /><circle cx="6.5" cy="12" r="2.5" /><circle cx="17.5" cy="18.5" r="2.5" /><path d="m8.7 10.7 6.6-3.9M8.7 13.3l6.6 3.9" /></Icon>
export const LinkIcon = (p: P) => <Icon {...p}><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" /><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" /></Icon>
export const ExternalLinkIcon = (p: P) => <Icon {...p}><path d="M14 4h6v6M20 4l-9 9M18 14v4.5a1.5 1.5 0 0 1-1.5 1.5h-11A1.5 1.5 0 0 1 4 18.5v-11A1.5 1.5 0 0 1 5.5 6H10" /></Icon>
export const EyeIcon = (p: P) => <Icon {...p}><path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z" /><circle cx="12" cy="12" r="2.8" /></Icon>
export const KeyIcon = (p: P) => <Icon {...p}><circle cx="8" cy="14" r="4" /><path d="m11 11 8-8m-3 3 2.5 2.5M14 8l2 2" /></Icon>
export const HomeDriveIcon = (p: P) => <Icon {...p}><path d="M4 15.5 7.5 5h9l3.5 10.5M4 15.5V18a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2.5M4 15.5h16" /><path d="M16.5 17.8h.01" /></Icon>

/** What a file is, as far as its icon and its preview go. */
export type FileKind = 'folder' | 'image' | 'video' | 'audio' | 'text' | 'pdf' | 'archive' | 'other'

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|toml|x-sh|sql|x-ndjson))/
const TEXT_EXTENSIONS = new Set(['.txt', '.md', '.json', '.csv', '.log', '.xml', '.yml', '.yaml', '.toml', '.ini', '.ts', '.tsx', '.js', '.mjs', '.css', '.html', '.py', '.go', '.rs', '.java', '.c', '.h', '.cpp', '.sh', '.sql', '.srt', '.vtt'])

/** The kind of a file from its category, MIME type and extension (the server's `file_category` first). */
export function fileKind(file: Pick<DriveFile, 'kind' | 'file_category' | 'mime_type' | 'file_extension' | 'name'>): FileKind {
  if (file.kind === FOLDER_KIND) return 'folder'
  const mime = file.mime_type.toLowerCase()
  const extension = (file.file_extension || file.name.slice(file.name.lastIndexOf('.'))).toLowerCase()
  if (mime === 'application/pdf' || extension === '.pdf') return 'pdf'
  switch (file.file_category) {
    case 'IMAGE':
      return 'image'
    case 'VIDEO':
      return 'video'
    case 'AUDIO':
      return 'audio'
    case 'TEXT':
      return 'text'
    case 'ARCHIVE':
      return 'archive'
    default:
      break
  }
  if (mime.startsWith('image/')) return 'image'
  if (mime.startsWith('video/')) return 'video'
  if (mime.startsWith('audio/')) return 'audio'
  if (TEXT_TYPES.test(mime) || TEXT_EXTENSIONS.has(extension)) return 'text'
  return 'other'
}

const EXTENSION_KINDS: [FileKind, RegExp][] = [
  ['image', /\.(jpe?g|png|gif|webp|avif|bmp|svg|heic|tiff?)$/i],
  ['video', /\.(mp4|m4v|webm|mkv|mov|avi|wmv|flv|m2ts|3gp)$/i],
  ['audio', /\.(mp3|m4a|aac|flac|wav|ogg|oga|opus|wma)$/i],
  ['pdf', /\.pdf$/i],
  ['archive', /\.(zip|rar|7z|tar|gz|tgz|bz2|xz|zst)$/i],
]

/** The kind of a local file from its name alone (the upload panel, before the server has seen it). */
export function kindFromName(name: string): FileKind {
  for (const [kind, pattern] of EXTENSION_KINDS) if (pattern.test(name)) return kind
  const dot = name.lastIndexOf('.')
  return dot > 0 && TEXT_EXTENSIONS.has(name.slice(dot).toLowerCase()) ? 'text' : 'other'
}

/** Kinds the preview dialog can show. */
export function isPreviewable(kind: FileKind): boolean {
  return kind === 'image' || kind === 'video' || kind === 'audio' || kind === 'text' || kind === 'pdf'
}

const KIND_COLOURS: Record<FileKind, string> = {
  folder: 'text-amber-500 dark:text-amber-400',
  image: 'text-emerald-600 dark:text-emerald-400',
  video: 'text-rose-600 dark:text-rose-400',
  audio: 'text-violet-600 dark:text-violet-400',
  text: 'text-sky-600 dark:text-sky-400',
  pdf: 'text-red-600 dark:text-red-400',
  archive: 'text-orange-600 dark:text-orange-400',
  other: 'text-slate-500 dark:text-slate-400',
}

/** The coloured icon of a file kind. */
export function FileKindIcon({ kind, className = 'size-6' }: { kind: FileKind; className?: string }) {
  const cls = `${className} shrink-0 ${KIND_COLOURS[kind]}`
  if (kind === 'folder') {
    return (
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={cls}>
        <path fill="currentColor" d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.4a1.5 1.5 0 0 1 1.06.44L11.5 7h8A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" />
      </svg>
    )
  }
  const mark: Record<Exclude<FileKind, 'folder'>, ReactNode> = {
    image: <path d="m8 17 2.5-3 2 2 2.5-3.5L17 17zM9.5 10.5h.01" />,
    video: <path d="m10 10.5 4 2.5-4 2.5z" />,
    audio: <path d="M10.5 17.5a1.5 1.5 0 1 1-1.5-1.5h1.5V10l4-1v6" />,
    text: <path d="M8.5 12h7M8.5 15h7M8.5 18h4" />,
    pdf: <path d="M8.5 16.5h7M8.5 13h7" />,
    archive: <path d="M11 4v2m2 0v2m-2 0v2m2 0v2m-2 0v2m.5 1.5h1v2.5h-2v-2.5z" />,
    other: null,
  }
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className={cls}>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" fill="currentColor" fillOpacity=".12" />
      <path d="M14 3v5h5" />
      {mark[kind]}
    </svg>
  )
}
