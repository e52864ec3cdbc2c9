import { createHmac } from 'node:crypto'
import { type DriveDeps, addressPolicyOf, createTorrentEngine, createTrackerCheck, defaultTorrentEngineConfig, migrateDrive, openBlobStore } from '@cumulus/drive'
import type { Clock, CounterStore } from '@cumulus/identity'
import type { JobRunner } from '@cumulus/jobs'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { CumulusConfig } from './config.js'
import type { ServerKeys } from './keys.js'

export interface OpenDriveInput {
  config: CumulusConfig
  keys: ServerKeys
  /** The database identity opened: the drive's tables live beside identity's. */
  db: Kysely<any>
  clock: Clock
  logger: Logger
  jobs: JobRunner
  /** identity's counter store (memory, or Redis when REDIS_URL is set). */
  counters: CounterStore
  /** identity's memberships: a download through a signed link counts against its owner's plan. */
  memberships: DriveDeps['memberships']
  /** identity's users: a share names who shared it. */
  profiles: DriveDeps['profiles']
}

/**
 * Migrates the drive tables and builds the drive's deps: the blob store config.storage names (local
 * disk under the data directory by default) and a link-signing key derived from the server's
 * HMAC key, so rotating CUMULUS_SECRET also invalidates every download link.
 */
export async function openDrive(input: OpenDriveInput): Promise<DriveDeps> {
  const { config } = input
  await migrateDrive(input.db)
  return {
    config: config.drive,
    db: input.db,
    blobs: await openBlobStore(config.storage, config.dataDir),
    clock: input.clock,
    linkSecret: createHmac('sha256', input.keys.hmacKey).update('cumulus drive download links').digest('base64url'),
    logger: input.logger.child({ service: 'drive' }),
    jobs: input.jobs,
    counters: input.counters,
    memberships: input.memberships,
    profiles: input.profiles,
    // aria2 starts on the first magnet or torrent, not here: a server that never sees one never runs it.
    torrents: createTorrentEngine({
      ...defaultTorrentEngineConfig(config.drive.torrent.workDir),
      aria2cPath: config.drive.torrent.aria2cPath,
      dht: config.drive.torrent.dht,
      peerExchange: config.drive.torrent.peerExchange,
      listenPort: config.drive.torrent.listenPort,
      // The trackers a link or .torrent names answer to the same address rules as HTTP downloads.
      trackerCheck: createTrackerCheck(addressPolicyOf(config.drive.offlineAllowedNetworks)),
    }),
  }
}
