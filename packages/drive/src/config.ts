import type { PlanTable } from './domain/plans.js'

export const TRANSCODE_TRIGGERS = ['upload', 'play', 'off'] as const
export type TranscodeTrigger = (typeof TRANSCODE_TRIGGERS)[number]
export const X264_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'] as const
export type X264Preset = (typeof X264_PRESETS)[number]

/**
 * The drive service's slice of the configuration. The server parses the environment once
 * (packages/server/src/config.ts) and passes this down; nothing here reads process.env.
 */
export interface DriveConfig {
  /** Absolute base URL clients reach this server at (signed links, tus endpoints). */
  publicUrl: string
  /** Where upload staging files live (tus); the blob store has its own place. */
  uploadDir: string
  /** What each plan allows (storage, offline tasks, playback): free, and the paid plans by name. */
  plans: PlanTable
  /** Trashed items are purged for good this long after they were trashed. */
  trashRetentionDays: number
  /** Signed download links live this long (at least 10 minutes, drive.md). */
  linkTtlSeconds: number
  /** An unfinished upload is dropped (and its reserved space released) this long after it was created. */
  uploadExpirySeconds: number
  /** A batch operation whose subtrees hold more items than this runs as a job instead of inside its request. */
  batchInlineMaxItems: number
  /** The most items (all levels) one save of a share may copy (share_restore_too_large past it). */
  shareRestoreMaxItems: number
  /** The most items (all levels) one batchCopy may make (resource_exhausted past it). */
  copyMaxItems: number
  /** Offline downloads one server process runs at once (all accounts together). */
  offlineWorkers: number
  /**
   * Private networks (CIDR) offline downloads may reach. Empty by default: loopback, private,
   * link-local and the like are refused (SSRF), except what the operator lists here (a LAN, tests).
   */
  offlineAllowedNetworks: string[]
  /** ffmpeg, for video poster frames: a name on PATH or an absolute path (decision 025). */
  ffmpegPath: string
  /** ffprobe, which comes with ffmpeg: what a video holds (size, length, codecs, subtitle tracks). */
  ffprobePath: string
  /** The tools that read archives (decision 028): names on PATH or absolute paths. */
  archive: {
    /** 7-Zip's `7zz` (Debian's 7zip): zip, 7z, tar and the compressors. */
    sevenZipPath: string
    /** The Unarchiver's `lsar` (Debian's unar): RAR. */
    lsarPath: string
    /** The Unarchiver's `unar`, which unpacks RAR. */
    unarPath: string
    /** The most bytes one unpacking may write, whatever the quota left (a bomb's bound). */
    maxUnpackBytes: number
    /** The most an archive may unpack to per byte it takes (declared size / archive size). */
    maxRatio: number
    /** Unpacking tasks one server process runs at once (each keeps a core busy). */
    workers: number
  }
  /** HLS renditions of videos for members (issue 13 §3, decision 026). */
  transcode: {
    /**
     * When a video is transcoded: `upload` (a member's video as it lands, anyone else's when a
     * member first plays it), `play` (only when a member first plays it), or `off`.
     */
    trigger: TranscodeTrigger
    /** x264's preset: a slower one makes smaller files of the same quality for more CPU. */
    preset: X264Preset
  }
  /** The BitTorrent engine (aria2, decision 021) for magnets and .torrent files. */
  torrent: {
    /** The aria2c executable: a name on PATH or an absolute path. */
    aria2cPath: string
    /** Where aria2 keeps its settings, DHT table and magnet scratch space. */
    workDir: string
    /** The mainline DHT and peer exchange: how magnets without trackers find peers. */
    dht: boolean
    peerExchange: boolean
    /** How long a preview waits for a magnet's metadata from its swarm before it says none came. */
    previewTimeoutMs: number
    /** Port or range aria2 listens on for peers ("6881-6999"); aria2's default when null. */
    listenPort: string | null
  }
  /**
   * Instant upload (a create naming a stored GCID and size completes without the bytes) for
   * content another account stored too. Off by default: knowing a file's GCID and size must not
   * be enough to get its bytes. On, only for single-tenant installations (DRIVE_GLOBAL_DEDUP).
   */
  globalDedup: boolean
}
