import type { Clock, CounterStore } from '@cumulus/identity'
import type { JobRunner } from '@cumulus/jobs'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { BlobStore } from './blobs/blob-store.js'
import type { DriveConfig } from './config.js'
import type { TorrentEngine } from './features/offline/torrent/index.js'
import type { DriveDatabase } from './db/schema.js'

/** Everything the drive domain functions need, passed explicitly (no globals, no process.env). */
export interface DriveDeps {
  config: DriveConfig
  db: Kysely<DriveDatabase>
  blobs: BlobStore
  clock: Clock
  /** Key for signed download links. */
  linkSecret: string
  logger: Logger
  /** The durable job runner: offline downloads run on it, enqueued in the transaction that creates their task. */
  jobs: JobRunner
  /** The BitTorrent engine (aria2), started on first use; magnets fail with offline_torrent_unavailable while it is not installed. */
  torrents: TorrentEngine
  /** Rate counters shared with identity (memory, or Redis across nodes): the preview budget. */
  counters: CounterStore
  /**
   * Accounts' memberships, for work that runs without the caller (a signed link's download
   * counted against its owner's plan). Identity's store in the composed server.
   */
  memberships: MembershipLookup
  /** Accounts' public names and pictures: who shared a share (identity's users in the composed server). */
  profiles: ProfileLookup
}

export interface ProfileLookup {
  find(userId: string): Promise<{ nickname: string; avatar: string } | null>
}

export interface MembershipLookup {
  find(userId: string): Promise<{ vasType: string; expiresAtMs: number } | null>
}

/** The signed-in caller, as identity's `authenticated` pre-handler sets it (its AuthContext fits). */
export interface Caller {
  userId: string
  /** The VIP membership read with the session; it decides the quota and the plan. */
  membership: { expiresAtMs: number; vasType: string; level: number; isYear: boolean } | null
}
