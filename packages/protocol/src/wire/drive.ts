/** drive.md wire shapes. Fields are snake_case, as on the wire; large numbers are strings. */

export const FILE_KIND = 'drive#file'
export const FOLDER_KIND = 'drive#folder'
export type DriveItemKind = typeof FILE_KIND | typeof FOLDER_KIND

export const PHASES = ['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING', 'PHASE_TYPE_ERROR', 'PHASE_TYPE_COMPLETE'] as const
export type Phase = (typeof PHASES)[number]

export const FILE_CATEGORIES = ['VIDEO', 'AUDIO', 'IMAGE', 'TEXT', 'ARCHIVE', 'OTHER'] as const
export type FileCategory = (typeof FILE_CATEGORIES)[number]

export const FOLDER_TYPES = ['NORMAL', 'DOWNLOAD'] as const
export type FolderType = (typeof FOLDER_TYPES)[number]

export interface DriveLink {
  url: string
  token: string
  /** RFC 3339; at least 10 minutes ahead when the file is read. */
  expire: string
  type: string
}

export interface DriveMedia {
  media_id: string
  media_name: string
  video: { height: number; width: number; duration: number; bit_rate: number; frame_rate: number; video_codec: string; audio_codec: string; video_type: string } | null
  link: DriveLink
  need_more_quota: boolean
  vip_types: string[]
  redirect_link: string
  icon_link: string
  is_default: boolean
  priority: number
  is_origin: boolean
  resolution_name: string
  is_visible: boolean
  category: string
}

export interface DriveFile {
  kind: DriveItemKind
  id: string
  /** '' for the root folder. */
  parent_id: string
  name: string
  user_id: string
  size: string
  revision: string
  file_extension: string
  mime_type: string
  file_category: FileCategory
  folder_type: FolderType
  /** GCID, 40 upper-case hex digits; '' for folders and unfinished uploads. */
  hash: string
  md5_checksum: string
  phase: Phase
  trashed: boolean
  starred: boolean
  created_time: string
  modified_time: string
  /** '' when not trashed; the only time that may be empty. */
  delete_time: string
  thumbnail_link: string
  icon_link: string
  web_content_link: string
  links: Record<string, DriveLink>
  medias: DriveMedia[]
  audit: { status: string; message: string; title: string }
  params: Record<string, string>
  space: string
  writable: boolean
}

export interface DriveFileList {
  kind: 'drive#fileList'
  files: DriveFile[]
  /** '' on the last page. */
  next_page_token: string
  version: string
}

export type DriveTaskType = 'offline' | 'upload' | 'batch' | 'decompress'

export interface DriveTask {
  kind: 'drive#task'
  id: string
  name: string
  type: DriveTaskType
  user_id: string
  statuses: unknown[]
  status_size: number
  params: Record<string, string>
  file_id: string
  file_name: string
  file_size: string
  message: string
  created_time: string
  updated_time: string
  phase: Phase
  progress: number
  icon_link: string
}

export interface DriveTaskList {
  tasks: DriveTask[]
  next_page_token: string
  expires_in: number
}

export interface ResumableReply {
  kind: 'drive#resumable'
  provider: 'PROVIDER_TUS'
  params: {
    /** This upload's own tus URL: HEAD for the offset, PATCH for bytes, DELETE to cancel. */
    endpoint: string
    /** RFC 3339. */
    expiration: string
  }
}

export type UploadType = 'UPLOAD_TYPE_RESUMABLE' | 'UPLOAD_TYPE_URL' | 'UPLOAD_TYPE_FORM' | ''

export interface CreateFolderRequest {
  kind: typeof FOLDER_KIND
  name: string
  parent_id?: string | null
}

export interface CreateUploadRequest {
  kind: typeof FILE_KIND
  name: string
  parent_id?: string | null
  size: string | number
  hash?: string | null
  upload_type?: 'UPLOAD_TYPE_RESUMABLE'
  resumable?: { provider?: string } | null
}

export interface CreateOfflineRequest {
  kind: typeof FILE_KIND
  upload_type: 'UPLOAD_TYPE_URL'
  url: { url: string }
  name?: string | null
  parent_id?: string | null
  folder_type?: 'DOWNLOAD' | '' | null
}

export type CreateFileRequest = CreateFolderRequest | CreateUploadRequest | CreateOfflineRequest

export interface CreateFileReply {
  upload_type: UploadType
  file: DriveFile | null
  task: DriveTask | null
  resumable?: ResumableReply
  url?: { kind: 'upload#url' }
}

export interface UpdateFileRequest {
  name?: string
  starred?: boolean
}

export type BatchAction = 'batchTrash' | 'batchUntrash' | 'batchDelete' | 'batchMove' | 'batchCopy' | 'star' | 'unstar'

export interface BatchRequest {
  ids: string[]
  to?: { parent_id?: string | null } | null
}

export interface TaskIdReply {
  task_id: string
}

export interface DriveQuota {
  kind: 'drive#quota'
  limit: string
  /** Everything stored, trash and unfinished uploads included. */
  usage: string
  /** The part of `usage` in the trash. */
  usage_in_trash: string
  /**
   * The part of `usage` reserved by uploads not finished yet (outside the trash): an upload holds
   * its whole size from creation until it completes, is cancelled or expires. Our extension;
   * absent from the commercial service's replies.
   */
  usage_in_uploads?: string
  play_times_limit: string
  play_times_usage: string
  is_unlimited: boolean
}

export interface DriveAbout {
  kind: 'drive#about'
  quota: DriveQuota
  expires_at: string
  quotas: Record<string, unknown>
}

export interface DriveEvent {
  type: string
  type_name: string
  file_id: string
  file_name: string
  created_time: string
}

export interface DriveEventList {
  events: DriveEvent[]
  next_page_token: string
}

export interface VipPrivilegeReply {
  result: 'ACCEPTED'
  message: string
  redirect_uri: string
  data: {
    /** RFC 3339, '' for a user who has never been a member. */
    expire: string
    status: 'ok' | 'invalid'
    type: 'novip' | 'vip'
    user_id: string
  }
}

/** The `filters` query parameter (drive.md). */
export interface DriveFilters {
  trashed?: { eq: boolean }
  phase?: { eq: Phase }
  kind?: { eq: DriveItemKind }
  starred?: { eq: boolean }
  mime_type?: { prefix: string }
  modified_time?: { gt?: string; lt?: string }
  id?: { in: string }
}

export type DriveOrderField = 'name' | 'modified_time' | 'size'
