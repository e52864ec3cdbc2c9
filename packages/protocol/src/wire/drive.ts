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
  video: { height: number; width: number; duration: number; bit_rate: number; frame_rate: number; video_codec: string; audio_codec: string; video_type: string; hdr_type: string } | null
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

/** The renditions a transcode makes, tallest first; a video gets those not taller than itself (issue 13 §3). */
export const RENDITION_NAMES = ['1080P', '720P', '480P'] as const
export type RenditionName = (typeof RENDITION_NAMES)[number]

/**
 * Where a video's transcode stands, in the detail's `params.transcode_status` (with
 * `params.transcode_progress`, 0..100, while it runs): `none` before one was asked for,
 * `unavailable` when the video has no rung to make (smaller than 480p) or cannot be read.
 */
export type TranscodeStatus = 'none' | 'queued' | 'running' | 'ready' | 'failed' | 'unavailable'

/**
 * What `GET /drive/v1/files/{id}` of a video adds to `params` (all strings, as params are):
 * `transcode_status`, `transcode_progress`, `hls_url` (the signed master playlist of the
 * renditions the caller may play; only for members, once ready), and `play_limited: "true"`
 * when today's plays are used up (the Original then has `need_more_quota` and no link).
 */
export interface DriveVideoParams {
  transcode_status?: TranscodeStatus
  transcode_progress?: string
  hls_url?: string
  play_limited?: 'true'
}

/** `GET|PUT /drive/v1/files/{id}/playback`: where the caller stopped watching a video, to resume there. */
export interface DrivePlayback {
  kind: 'drive#playback'
  file_id: string
  /** 0 when never watched. */
  position_seconds: number
  duration_seconds: number
  /** '' when never watched. */
  updated_time: string
}

export interface SavePlaybackRequest {
  position_seconds: number
  duration_seconds?: number
}

/**
 * `GET /drive/v1/files/{id}/subtitles`: text tracks for a video, as WebVTT behind signed links
 * (a `<track>` element sends no bearer): those inside the video (found when it is probed), and
 * `.srt`, `.ass`, `.ssa` and `.vtt` files beside it whose names start with the video's.
 */
export interface DriveSubtitle {
  id: string
  /** The track's title, or the subtitle file's name. */
  label: string
  /** BCP 47 or ISO 639-2 as the source says it; '' when unknown. */
  language: string
  source: 'embedded' | 'file'
  /** The signed WebVTT URL. */
  url: string
  is_default: boolean
}

export interface DriveSubtitleList {
  kind: 'drive#subtitleList'
  subtitles: DriveSubtitle[]
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
  /** Archives only (`file_category: "ARCHIVE"`): what can open them, the archive page first. */
  apps?: DriveApp[]
}

/** An app that opens a file (drive.md "Decompress"). */
export interface DriveApp {
  id: string
  name: string
  /** Where the app opens this file. */
  link: string
}

export interface DriveFileList {
  kind: 'drive#fileList'
  files: DriveFile[]
  /** '' on the last page. */
  next_page_token: string
  version: string
}

export type DriveTaskType = 'offline' | 'upload' | 'batch' | 'decompress' | 'restore'

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
  /**
   * What an offline task produced (the file, or the folder of a multi-file torrent), or null
   * while there is nothing yet. Optional: task types other than offline leave it out.
   */
  reference_resource?: DriveReferenceResource | null
}

/** The item an offline task produced (drive.md "Offline download"). */
export interface DriveReferenceResource {
  kind: DriveItemKind
  id: string
  name: string
  size: string
  mime_type: string
  thumbnail_link: string
}

/**
 * The `params` of an offline task, all strings as on the wire: the source URL, how long it has
 * run (`age`, seconds), the estimated speed (`predict_speed`, bytes per second) and its kind, and
 * the folder the content lands in.
 */
export interface OfflineTaskParams {
  url?: string
  age?: string
  predict_speed?: string
  predict_type?: string
  parent_id?: string
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
  /**
   * The source, and for a torrent the indexes (decimal strings, the `id`s of the preview's leaf
   * resources) of the files to fetch; absent or empty means every file.
   */
  url: { url: string; files?: string[] | null }
  name?: string | null
  parent_id?: string | null
  folder_type?: 'DOWNLOAD' | '' | null
  /** Our extension: a `.torrent` file already in the drive is the source (`url.url` then ''). */
  params?: { torrent_file_id?: string } | null
}

/**
 * The reply to an offline download's creation. When the content was already known (same URL or
 * info hash completed before), `file` is set at once and `task` is null or complete, its
 * `message` saying so ("instant completion").
 */
export interface CreateOfflineReply {
  upload_type: 'UPLOAD_TYPE_URL'
  url: { kind: 'upload#url' }
  file: DriveFile | null
  task: DriveTask | null
}

/**
 * `POST /drive/v1/resource/list`: what links (newline-separated in `urls`) or, our extension, a
 * `.torrent` file in the drive (`torrent_file_id`) would download, before adding them.
 */
export interface ResourceListRequest {
  urls?: string
  torrent_file_id?: string
  page_size?: number
  thumbnail_type?: string
}

/** A resource status that is not an error reason. */
export const RESOURCE_STATUS_OK = 'OK'

/**
 * One previewed resource. For a torrent, `dir.resources` is its file tree (folders have
 * `is_dir`); a leaf's `id` is the torrent's file index as a decimal string, what
 * `CreateOfflineRequest.url.files` takes.
 */
export interface DriveResource {
  kind: 'drive#resource'
  id: string
  name: string
  file_size: string
  file_count: number
  /** `status` is "OK" or the catalogue reason the link is refused with. */
  meta: { url: string; icon_link: string; status: string }
  is_dir: boolean
  dir?: { resources: DriveResource[] } | null
}

export interface ResourceListReply {
  list: { resources: DriveResource[] }
}

/** `POST /drive/v1/task` `{type: "offline", create_type: "RETRY", id}`. */
export interface RetryTaskRequest {
  type: 'offline'
  create_type: 'RETRY'
  id: string
}

export interface RetryTaskReply {
  task: DriveTask
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

/** A count against a plan limit (large numbers as strings); a negative `limit` means unlimited. */
export interface DriveQuotaCount {
  kind: 'drive#quota'
  limit: string
  usage: string
}

/** The plan's counted limits beside the storage quota. */
export interface DriveAboutQuotas {
  /** Offline downloads created today (UTC day) against the plan's daily limit. */
  offline_daily?: DriveQuotaCount
  /** Offline downloads pending or running against the plan's cap. */
  offline_running?: DriveQuotaCount
  /** Bytes of the account's files downloaded today (UTC day) against the plan's daily traffic (-1: no limit). */
  download_daily?: DriveQuotaCount
}

export interface DriveAbout {
  kind: 'drive#about'
  quota: DriveQuota
  expires_at: string
  quotas: DriveAboutQuotas
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
    /** The plan while it runs ('vip', or another the operator names); 'novip' otherwise. */
    type: string
    user_id: string
    /** The running membership, one entry per plan; empty for a non-member. */
    vip_item: VipItem[]
  }
}

export interface VipItem {
  type: string
  /** RFC 3339. */
  expire: string
  /** Whole days left, rounded up. */
  surplus_day: number
}

/** `POST /vip/v1/order/activation-code` `{activation_code, data: {}}`. */
export interface ActivationCodeReply {
  add_days: number
  /** The code as the server read it (grouped, upper case). */
  code: string
  data: { expire: string; status: 'ok' | 'invalid'; type: string; user_id: string }
}

/** One metered privilege in `GET /vip/v1/quantity/list` (counts, or bytes; -1 means no limit). */
export interface VipQuantity {
  total_assets: number
  assets: number
}

/** `GET /vip/v1/quantity/list?type=transfer` (drive.md "Membership"). */
export interface VipQuantityReply {
  base: {
    /** Offline (cloud download) tasks today: the plan's daily number, and what is left of it. */
    offline: VipQuantity
    download: VipQuantity
    upload: VipQuantity
    download_daily: VipQuantity
    vip_status: 'ok' | 'invalid'
    /** RFC 3339, '' for a user who has never been a member. */
    expire_time: string
  }
  transfer_type: string
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

/** drive.md "Decompress": what a list or unpack call answers, always with HTTP 200. */
export const DECOMPRESS_STATUSES = ['OK', 'PASS_WORD_EMPTY', 'PASS_WORD_ERROR', 'NOT_SUPPORTED', 'FILE_TOO_LARGE', 'NEED_MORE_QUOTA'] as const
export type DecompressStatus = (typeof DECOMPRESS_STATUSES)[number]

/** `POST /decompress/v1/list` body. */
export interface DecompressListRequest {
  gcid?: string
  file_id: string
  /** '' for the archive's top level, or 'dir/sub'. */
  path?: string
  password?: string
}

/** One entry of one level of an archive. */
export interface DecompressEntry {
  index: number
  filename: string
  /** Bytes as a string; a folder's is the sum of what it holds. */
  filesize: string
  mime_type: string
  /** '' until unpacked. */
  gcid: string
  kind: DriveItemKind
  icon_link: string
  /** The entry's path inside the archive, as `path` takes it. */
  path: string
}

/** `POST /decompress/v1/list` reply. */
export interface DecompressListReply {
  status: DecompressStatus
  status_text: string
  task_id: string
  current_path: string
  title: string
  file_size: string
  gcid: string
  files: DecompressEntry[]
}

/** `POST /decompress/v1/decompress` body. */
export interface DecompressRequest {
  gcid?: string
  file_id: string
  password?: string
  /** Paths as `list` gives them (a folder takes what it holds); empty or absent: everything. */
  files?: { path: string }[]
  /** true: into a new folder named after the archive, beside it; false: into `parent_id`. */
  default_parent?: boolean
  /** The folder to unpack into when `default_parent` is false ('' for the top of the drive). */
  parent_id?: string
}

/** `POST /decompress/v1/decompress` reply; `task_id` is '' unless `status` is OK. */
export interface DecompressReply {
  status: DecompressStatus
  status_text: string
  task_id: string
  /** Files the task will unpack. */
  files_num: number
  /** Where the web app shows the task's progress. */
  redirect_link: string
}

/** `GET /decompress/v1/progress?task_id` reply. */
export interface DecompressProgress {
  progress: number
  phase: Phase
  /** The folder extracted into ('' until it exists). */
  file_id: string
  /** Bytes to unpack, as a string. */
  task_size: string
  task_size_completed: string
  /** Seconds before the client should ask again. */
  expires_in: number
  error_description: string
}

/** drive.md "Search": how a result matched the query, best first. */
export const SEARCH_MATCHES = ['exact', 'prefix', 'word', 'substring', 'pinyin'] as const
export type SearchMatch = (typeof SEARCH_MATCHES)[number]

/** `filters` of `GET /drive/v1/search` (a JSON object; unknown keys are ignored). */
export interface DriveSearchFilters {
  kind?: { eq: DriveItemKind }
  /** Comma-separated or an array of FileCategory values. */
  file_category?: { in: string | FileCategory[] }
  /** Bytes, as numbers or strings. */
  size?: { gt?: number | string; lt?: number | string }
  modified_time?: { gt?: string; lt?: string }
}

/**
 * What a search result's `params` hold (strings, as params are): `path`, the folder it is in
 * ("/" for the root, "/Movies/2024"), `parent_name` ('' for the root) and `match`.
 */
export interface DriveSearchParams {
  path: string
  parent_name: string
  match: SearchMatch
}

/** One suggestion of `GET /drive/v1/search/associate`. */
export interface DriveAssociate {
  /** The item's name. */
  text: string
  /** Where the query matched in `text`: [start, end) in UTF-16 code units, end exclusive. */
  highlight: [number, number][]
  file_id: string
  kind: DriveItemKind
  file_category: FileCategory
  /** The folder it is in, as in a search result's `params.path`. */
  path: string
  match: SearchMatch
}

export interface DriveAssociateList {
  associates: DriveAssociate[]
}

// ---- shares (drive.md "Shares", issue 17) ------------------------------------------------

/** What a share call answers, always with HTTP 200: whether the share can be opened, and if not why. */
export const SHARE_STATUSES = ['OK', 'PASS_CODE_EMPTY', 'PASS_CODE_ERROR', 'DELETED', 'EXPIRED', 'NOT_FOUND', 'SENSITIVE_RESOURCE'] as const
export type ShareStatus = (typeof SHARE_STATUSES)[number]

export type ShareTo = 'publiclink' | 'encryptedlink'
export type PassCodeOption = 'NOT_REQUIRED' | 'REQUIRED'

/** The expiries the apps offer, in days; -1 never expires. The API takes any 1..SHARE_MAX_EXPIRATION_DAYS or -1. */
export const SHARE_EXPIRATION_CHOICES = [1, 7, 30, -1] as const
export const SHARE_MAX_EXPIRATION_DAYS = 3650
/** A pass code the owner chooses: 4 to 16 ASCII letters and digits (a generated one is 4 lower-case letters and digits). */
export const SHARE_PASS_CODE_PATTERN = /^[A-Za-z0-9]{4,16}$/
/** The most items one share may name at its top level. */
export const SHARE_MAX_ITEMS = 500

/** `POST /drive/v1/share` body. */
export interface CreateShareRequest {
  file_ids: string[]
  /** `encryptedlink` asks for a pass code like `pass_code_option: "REQUIRED"`. */
  share_to?: ShareTo
  pass_code_option?: PassCodeOption
  /** Days until the link stops working, or -1 (default) for never; a number or a string. */
  expiration_days?: number | string
  /** The owner's own pass code instead of a generated one (SHARE_PASS_CODE_PATTERN). */
  custom_pass_code?: string
  /** The share's title; by default the first item's name (and "and N more"). */
  title?: string
}

/** One share as its owner sees it (create reply's `share_list`, `share/list`). */
export interface DriveShare {
  share_id: string
  share_url: string
  share_to: ShareTo
  pass_code_option: PassCodeOption
  /** '' for a public link. The owner sees it to share it again. */
  pass_code: string
  title: string
  /** Top-level items still in the share (trashed or deleted ones are gone from it). */
  file_num: string
  /** The first item, for the list's icon. */
  file_id: string
  file_kind: DriveItemKind
  file_category: FileCategory
  thumbnail_link: string
  icon_link: string
  /** Days the share was made for; "-1" never expires. */
  expiration_days: string
  /** When it stops working; null when it never does. */
  expiration_at: string | null
  /** Seconds it has left; "-1" when it never expires, "0" once expired. */
  expiration_left_seconds: string
  create_time: string
  share_status: ShareStatus
  share_status_text: string
  view_count: string
  restore_count: string
  download_count: string
  /** The text to copy: title, link and pass code, in the caller's language. */
  share_text: string
}

/** `POST /drive/v1/share` reply. */
export interface CreateShareReply {
  share_id: string
  share_url: string
  pass_code: string
  share_text: string
  share_list: DriveShare[]
}

/** Who shared (`user_info` of a share). */
export interface ShareOwner {
  user_id: string
  nickname: string
  avatar: string
}

/** `GET /drive/v1/share` reply (no bearer needed), always HTTP 200. Fields past the status are empty unless it is OK. */
export interface ShareInfoReply {
  share_status: ShareStatus
  share_status_text: string
  share_id: string
  /** Proof that the pass code was given; send it with every later call of this share. '' for a public share. */
  pass_code_token: string
  title: string
  file_num: string
  expiration_at: string | null
  /** How many more times the share may be saved; "-1" without a limit. */
  restore_count_left: string
  user_info: ShareOwner
  /** One page of the share's top-level items (their links are the share's own, dying with it). */
  files: DriveFile[]
  next_page_token: string
}

/** `GET /drive/v1/share/detail` reply: one folder inside the share. */
export interface ShareDetailReply {
  share_status: ShareStatus
  share_status_text: string
  files: DriveFile[]
  next_page_token: string
}

/** `GET /drive/v1/share/file_info` reply. */
export interface ShareFileInfoReply {
  share_status: ShareStatus
  share_status_text: string
  /** The item with fresh download links and `medias`; null unless the status is OK. */
  file_info: DriveFile | null
}

/** `POST /drive/v1/share/restore` body. */
export interface RestoreShareRequest {
  share_id: string
  pass_code_token?: string
  /** What to save; empty or absent: the whole share. */
  file_ids?: string[]
  /** The share's folders from its top level down to the folder `file_ids` are in ([] or absent for the top level). */
  ancestor_ids?: string[]
  /** The caller's folder to save into, when `specify_parent_id` is true. */
  parent_id?: string
  specify_parent_id?: boolean
}

export type RestoreStatus = 'RESTORE_START' | 'RESTORE_COMPLETE'

/** `POST /drive/v1/share/restore` reply. */
export interface RestoreShareReply {
  share_status: ShareStatus
  share_status_text: string
  /** COMPLETE when the copy was made in the request; START when it runs as the task `restore_task_id`. */
  restore_status: RestoreStatus | ''
  restore_task_id: string
  /** The folder the items were saved into. */
  file_id: string
}

/** `GET /drive/v1/share/list` reply. */
export interface ShareListReply {
  data: DriveShare[]
  next_page_token: string
}

/**
 * What the server-rendered share page (`/s/{share_id}`) may show before anyone opens the share:
 * for link previews in chat apps (Open Graph) and the page's title. It counts no view and takes no
 * pass code; a share behind a pass code shows its owner's name only.
 */
export interface SharePreview {
  status: ShareStatus
  /** '' unless the share is public and OK. */
  title: string
  /** 0 unless the share is public and OK. */
  fileNum: number
  /** The sharer's nickname, when the share is OK. */
  ownerName: string
  passCodeRequired: boolean
}
