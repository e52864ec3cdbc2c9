import type { ColumnType, Selectable } from 'kysely'

/**
 * Drive tables. Times are milliseconds since the epoch (bigint columns); booleans are 0/1
 * integers; sizes are bigint bytes (they fit a JS number up to 8 PiB), so one set of migrations
 * serves SQLite and PostgreSQL alike.
 */
export interface DriveDatabase {
  drive_files: FilesTable
  drive_blobs: BlobsTable
  drive_usage: UsageTable
  drive_uploads: UploadsTable
  drive_tasks: TasksTable
  drive_events: EventsTable
  drive_account_holds: AccountHoldsTable
  drive_offline_sources: OfflineSourcesTable
  drive_thumbnails: ThumbnailsTable
  drive_media: MediaTable
  drive_media_renditions: MediaRenditionsTable
  drive_media_subtitles: MediaSubtitlesTable
  drive_plays: PlaysTable
  drive_play_days: PlayDaysTable
  drive_playback: PlaybackTable
  drive_traffic_days: TrafficDaysTable
  drive_shares: SharesTable
  drive_share_items: ShareItemsTable
}

/** A share link (issue 17, drive.md "Shares"): the owner's items behind a link, maybe a pass code and an expiry. */
export interface SharesTable {
  id: string
  user_id: string
  title: string
  share_to: 'publiclink' | 'encryptedlink'
  /** '' for a public link. Kept readable: the owner sees it to share it again; compared in constant time. */
  pass_code: string
  /** -1: never expires. */
  expiration_days: number
  expires_at: number | null
  created_at: number
  /** When the owner cancelled it; its link then reads DELETED. */
  deleted_at: number | null
  view_count: ColumnType<number, number | undefined, number>
  restore_count: ColumnType<number, number | undefined, number>
  download_count: ColumnType<number, number | undefined, number>
}

/** A share as read. */
export type ShareRow = Selectable<SharesTable>

/** The items a share names at its top level (folders share everything under them, read live). */
export interface ShareItemsTable {
  share_id: string
  file_id: string
}

/** Bytes an account's files were downloaded on a UTC day, for the plan's daily download traffic. */
export interface TrafficDaysTable {
  user_id: string
  day: number
  bytes: number
}

/**
 * What a video (by content, GCID) holds and where its transcode stands (features/media). One row
 * once the video was probed; `probe` is null when ffprobe could not read it.
 */
export interface MediaTable {
  gcid: string
  /** JSON of the probe (features/media/probe.ts VideoProbe), or null. */
  probe: string | null
  transcode_state: 'none' | 'queued' | 'running' | 'ready' | 'failed' | 'unavailable'
  /** 0..100 while running. */
  transcode_progress: number
  updated_at: number
}

/** One HLS rendition of a video: a single fMP4 file (a blob, counted in drive_blobs) and its playlist of byte ranges. */
export interface MediaRenditionsTable {
  gcid: string
  /** '1080P', '720P', '480P'. */
  name: string
  width: number
  height: number
  /** Bits per second over the whole rendition (the master playlist's AVERAGE-BANDWIDTH). */
  bandwidth: number
  /** Its largest segment's rate, bits per second (the master playlist's BANDWIDTH). */
  peak_bandwidth: number
  blob_gcid: string
  blob_size: number
  /** The variant playlist as ffmpeg wrote it, naming the file as `media.mp4`. */
  playlist: string
}

/** A text subtitle track inside a video, as WebVTT. */
export interface MediaSubtitlesTable {
  gcid: string
  /** The track's order among the video's subtitle tracks (0, 1, ...). */
  track: number
  language: string
  title: string
  is_default: number
  vtt: string
}

/** Which videos an account played on a day (UTC days since the epoch): one play per video per day. */
export interface PlaysTable {
  user_id: string
  day: number
  file_id: string
}

/** How many videos an account played on a day, for the plan's daily count (changed by one conditional update). */
export interface PlayDaysTable {
  user_id: string
  day: number
  plays: number
}

/** Where an account stopped watching a video, to resume there. */
export interface PlaybackTable {
  user_id: string
  file_id: string
  position_ms: number
  duration_ms: number
  updated_at: number
}

/** A content's thumbnail (WebP), or the record that none can be made. */
export interface ThumbnailsTable {
  gcid: string
  state: 'ready' | 'failed'
  data: Uint8Array | null
  width: number
  height: number
  created_at: number
}

/** An account identity froze for deletion (account.frozen, until account.restored or account.erased). */
export interface AccountHoldsTable {
  user_id: string
  since: number
}

export interface FilesTable {
  id: string
  user_id: string
  /** '' for an item in the root folder. */
  parent_id: string
  name: string
  /** Natural-order sort key of the name (names.ts); compared byte-wise. */
  name_key: string
  /** The name folded for search, with a leading space (domain/search-text.ts, decision 029); compared byte-wise. */
  search_text: string
  /** The pinyin of a name with Chinese characters, full then initials; '' otherwise. */
  search_extra: string
  /** The folded words, each CJK character its own: the index of one- and two-character queries. */
  search_words: string
  kind: 'drive#file' | 'drive#folder'
  /** 0 for folders, 1 for files: folders list first. */
  kind_rank: number
  size: number
  /** The blob this file's content is; null for folders and unfinished uploads. */
  gcid: string | null
  mime_type: string
  file_extension: string
  file_category: string
  folder_type: string
  phase: string
  starred: number
  /** 1 for a trashed item and for everything under a trashed folder. */
  trashed: number
  /** 1 only on the item the user trashed (the trash view lists these). */
  trash_root: number
  trashed_at: number | null
  revision: number
  /** The tus upload feeding a pending file. */
  upload_id: string | null
  created_at: number
  modified_at: number
}

export interface BlobsTable {
  gcid: string
  size: number
  /** Files whose content is this blob. 0 means garbage: housekeeping removes it after a grace period. */
  ref_count: number
  updated_at: number
}

export interface UsageTable {
  user_id: string
  /** Bytes counted against the quota: every file, trash and reserved (pending) uploads included. */
  usage: number
  /** The part of `usage` in the trash. */
  usage_in_trash: number
}

export interface UploadsTable {
  id: string
  file_id: string
  user_id: string
  size: number
  created_at: number
  expires_at: number
  /** 1 when the file is to be transcoded as it completes (a member's upload, TRANSCODE_ON=upload); 0 by default. */
  transcode: ColumnType<number, number | undefined, number>
}

export interface TasksTable {
  id: string
  user_id: string
  type: string
  name: string
  phase: string
  progress: number
  /** JSON object of string values. */
  params: string
  file_id: string
  file_name: string
  file_size: number
  message: string
  /** JSON array. */
  statuses: string
  created_at: number
  updated_at: number
  /** JSON object: the task's internal state (offline: plan, job id, resume state); never on the wire. */
  work: string
}

/** A source an offline download completed, and the files it gave (JSON: [{path, size, gcid, mime}]). */
export interface OfflineSourcesTable {
  source_key: string
  name: string
  files: string
  completed_at: number
}

export interface EventsTable {
  id: string
  user_id: string
  type: string
  file_id: string
  file_name: string
  created_at: number
}
