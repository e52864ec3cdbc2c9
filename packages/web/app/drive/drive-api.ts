import type { CreateOfflineReply, CreateShareReply, DriveAbout, DriveAssociateList, DriveFile, DriveFileList, DriveFilters, DriveSearchFilters, DriveOrderField, DrivePlayback, DriveResource, DriveSubtitleList, DriveTask, DriveTaskList, Phase, ShareListReply } from '@cumulus/protocol'

/**
 * The part of the SDK's `DriveClient` the drive pages use. The pages depend on this shape, not
 * on the class, so the SDK stays out of every other page's first load (drive-sdk.ts creates the
 * real client on demand) and component tests can pass a fake.
 */
export interface DriveApi {
  list(input: DriveListInput): Promise<DriveFileList>
  /**
   * The account's live files and folders whose names match `q`, best first (drive.md "Search");
   * each result's `params` hold `path`, `parent_name` and `match` (`DriveSearchParams`).
   */
  search(input: DriveSearchInput): Promise<DriveFileList>
  /** Suggestions as the user types: names with the ranges that matched, best first. */
  associate(q: string, options?: { limit?: number }): Promise<DriveAssociateList>
  get(id: string): Promise<DriveFile>
  createFolder(input: { name: string; parentId?: string }): Promise<DriveFile>
  upload(input: DriveUploadInput): DriveUploadHandle
  /** Uploads this browser started that can continue (after a reload, say). */
  pendingUploads(): readonly DrivePendingUpload[] | Promise<readonly DrivePendingUpload[]>
  /** Drops a remembered upload, on the server too. */
  discardUpload(fingerprint: string): Promise<void>
  /** A fresh signed download link of a file (its `web_content_link`). */
  downloadUrl(id: string): Promise<string>
  rename(id: string, name: string): Promise<DriveFile>
  star(ids: string[]): Promise<unknown>
  unstar(ids: string[]): Promise<unknown>
  move(ids: string[], toParentId: string): Promise<unknown>
  copy(ids: string[], toParentId: string): Promise<unknown>
  trash(ids: string[]): Promise<unknown>
  untrash(ids: string[]): Promise<unknown>
  delete(ids: string[]): Promise<unknown>
  emptyTrash(): Promise<unknown>
  about(): Promise<DriveAbout>
  /** Adds an offline download (the thunder page). */
  createOfflineTask(input: OfflineTaskInput): Promise<CreateOfflineReply>
  /** What links, or a `.torrent` file in the drive, would download. */
  previewResources(source: readonly string[] | { torrentFileId: string }): Promise<DriveResource[]>
  listTasks(input: { phases?: readonly Phase[]; limit?: number; pageToken?: string }): Promise<DriveTaskList>
  getTask(id: string): Promise<DriveTask>
  /** Cancels or forgets tasks; with `deleteFiles`, deletes what they downloaded too. */
  deleteTasks(ids: readonly string[], options: { deleteFiles?: boolean }): Promise<void>
  retryTask(id: string): Promise<DriveTask>
  /** Where the account stopped watching a video (`position_seconds` 0 when never watched). */
  playback(id: string): Promise<DrivePlayback>
  /** Remembers where the account is in a video; `keepalive` for a save sent as the page closes. */
  savePlayback(id: string, input: { positionSeconds: number; durationSeconds?: number }, options?: { keepalive?: boolean }): Promise<DrivePlayback>
  /** A video's text tracks, each a signed WebVTT URL a `<track>` can load without the bearer. */
  subtitles(id: string): Promise<DriveSubtitleList>
  /**
   * Shares items as one link (drive.md "Shares"). With `passCode` the link asks for a code: the
   * owner's `customPassCode` (SHARE_PASS_CODE_PATTERN) or a generated one. Refusals:
   * `file_not_found` (an item gone or trashed), `share_pass_code_invalid`, `invalid_argument`.
   */
  createShare(input: ShareCreateInput): Promise<CreateShareReply>
  /** One page of the account's shares, newest first, with their counts; `next_page_token` '' on the last. */
  listShares(input: { limit?: number; pageToken?: string }): Promise<ShareListReply>
  /** Cancels shares: their links stop working at once. Unknown ids are ignored. */
  deleteShares(ids: readonly string[]): Promise<void>
}

/** The SDK's `CreateShareInput`. */
export interface ShareCreateInput {
  fileIds: readonly string[]
  /** true: a pass code is needed to open the link (generated unless `customPassCode`). */
  passCode?: boolean
  customPassCode?: string
  /** Days until the link stops working; -1 never. */
  expirationDays?: number
  title?: string
}

export interface OfflineTaskInput {
  url: string
  name?: string
  parentId?: string
  torrentFileId?: string
  fileIndexes?: readonly string[]
}

export interface DriveListInput {
  parentId?: string
  limit?: number
  pageToken?: string
  filters?: DriveFilters
  orderBy?: DriveOrderField
  direction?: 'asc' | 'desc'
}

export interface DriveSearchInput {
  /** What the user typed (1 to SEARCH_QUERY_MAX_CHARS characters; the server refuses others). */
  q: string
  limit?: number
  pageToken?: string
  filters?: DriveSearchFilters
}

export interface DriveUploadProgress {
  sentBytes: number
  totalBytes: number
  bytesPerSecond: number
}

export interface DriveUploadInput {
  file: Blob
  name: string
  parentId?: string
  signal?: AbortSignal
  onProgress?: (progress: DriveUploadProgress) => void
}

export interface DriveUploadHandle {
  promise: Promise<DriveFile>
  pause(): void
  resume(): void
  /** Stops and discards the upload (on the server too). */
  cancel(): unknown
}

/**
 * An upload the SDK remembers (its `StoredUpload`). The SDK matches a file to it by name, size,
 * last-modified time and folder; the page only reads these fields to ask for the right file.
 */
export interface DrivePendingUpload {
  /** The SDK's key for it (account, folder, size, time, name). */
  fingerprint: string
  name: string
  size: number
  lastModified?: number
  parentId?: string
}
