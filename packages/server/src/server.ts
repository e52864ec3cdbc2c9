import type { AddressInfo } from 'node:net'
import { type DriveDeps, DRIVE_HOUSEKEEPING_QUEUE, driveAccountSubscriber, driveRoutes, registerDriveJobs, sharePreview, toolVersion } from '@cumulus/drive'
import { type EventDispatcher, type IdentityDeps, authOf, authenticated, baseServerOptions, httpKit, identityRoutes, runHousekeeping } from '@cumulus/identity'
import { type JobRunner, openJobRunner } from '@cumulus/jobs'
import { webPlugin } from '@cumulus/web'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import { type CumulusConfig, redactConfig } from './config.js'
import { loadKeys } from './keys.js'
import { createLogger } from './logger.js'
import { openDrive } from './open-drive.js'
import { type InfrastructureOverrides, openIdentity } from './open-identity.js'

export interface BuildServerOverrides extends InfrastructureOverrides {
  /** Default: a pino logger at config.logLevel on stdout. */
  logger?: Logger
  /** Set false to skip the periodic housekeeping (erasing due accounts, purging expired rows). Domain events are still delivered. */
  housekeeping?: boolean
  /** Set false to leave offline downloads queued instead of running them (tests that only add tasks). */
  offlineDownloads?: boolean
  /** Set false to serve the APIs only, without the web app (it then need not be built). */
  web?: boolean
  /** Set false to render every page afresh (benchmarks compare both). */
  webRenderCache?: boolean
}

/** The composed Cumulus server. Build with buildServer, then `app.listen()` or `app.inject()`. */
export interface CumulusServer {
  /** One Fastify app serving every service. Never listening yet. */
  app: FastifyInstance
  /** The identity service's deps (its stores, token keys and session check; drive reuses them). */
  identity: IdentityDeps
  /** The drive service's deps (database, blob store, config). */
  drive: DriveDeps
  /** Delivers domain events (account.frozen, account.erased, …) to the services that subscribe. */
  events: EventDispatcher
  /** The durable job runner (offline downloads, housekeeping, event delivery). */
  jobs: JobRunner
  /**
   * Stops accepting connections, closes idle ones, ends upload PATCHes and creations with upload
   * in flight with the bytes received, gives other requests IN_FLIGHT_GRACE_MS to finish, then
   * stops housekeeping and closes the event delivery, the database, counters and mailer.
   * Idempotent.
   */
  close(): Promise<void>
}

/**
 * The composition root: opens and migrates the database, loads (or creates) the keys, builds
 * identity's deps and mounts every service on one Fastify app, plus `GET /healthz`.
 */
export async function buildServer(config: CumulusConfig, overrides: BuildServerOverrides = {}): Promise<CumulusServer> {
  const logger = overrides.logger ?? createLogger(config)
  const keys = await loadKeys(config, logger)
  const identity = await openIdentity({ ...overrides, config, keys, logger })

  let app: FastifyInstance
  let drive: DriveDeps
  let jobs: Awaited<ReturnType<typeof openJobRunner>>
  try {
    jobs = await openJobs(config, identity.database.db, logger)
  } catch (err) {
    await identity.close()
    throw err
  }
  try {
    drive = await openDrive({ config, keys, db: identity.database.db, clock: identity.deps.clock, logger, jobs: jobs.runner, counters: identity.deps.counters, memberships: identity.deps.memberships, profiles: profilesOf(identity.deps.users) })
    app = Fastify(baseServerOptions(identity.deps, { trustProxy: config.trustProxy, domain: errorDomainOf })) as unknown as FastifyInstance
    // One error renderer for the whole app; the ErrorInfo domain follows the service a path belongs to.
    await app.register(httpKit, { corsOrigins: config.identity.corsOrigins, domain: errorDomainOf })
    await app.register(identityRoutes, { deps: identity.deps })
    // The drive on the same app and origin, behind identity's bearer check.
    await app.register(driveRoutes, { deps: drive, authenticate: authenticated(identity.deps, { scope: 'pan' }), callerOf: authOf })

    // The web app answers every other GET/HEAD/POST (pages, their data requests, static assets).
    // The share page's link previews read the drive in-process: no HTTP round trip, no view counted.
    const previewShare = (shareId: string) => sharePreview(drive, shareId)
    if (overrides.web !== false) await app.register(webPlugin, { publicConfig: config.web, sharePreview: previewShare, ...(overrides.webRenderCache === false ? { renderCache: false as const } : {}) })

    // Liveness for load balancers and orchestrators; quiet in the logs since probes are frequent.
    app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }))

    app.addHook('onListen', async () => {
      const address = app.server.address() as AddressInfo | string | null
      const listen = typeof address === 'string' || address === null ? address : `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      logger.info({ listen, config: redactConfig(config) }, `Cumulus is serving ${config.publicUrl}`)
    })
  } catch (err) {
    await jobs.close()
    await drive!?.torrents.close().catch(() => undefined)
    await identity.close()
    throw err
  }

  // Services react to each other's domain events: the drive to identity's account events.
  identity.events.subscribe(driveAccountSubscriber(drive))

  // Everything periodic runs as jobs on the durable runner, never on bare timers: the runner's
  // schedules start each period on one node at a time, and a node that dies mid-run is taken over.
  const runner = jobs.runner
  registerDriveJobs(runner, drive, { housekeeping: overrides.housekeeping !== false, offlineDownloads: overrides.offlineDownloads !== false })
  // ffmpeg and ffprobe are located at start (decision 026), off the start path: the log says
  // which build runs, or that thumbnails of videos and playback renditions wait for them.
  void logMediaTools(drive)
  if (overrides.deliverEvents !== false) {
    runner.register(EVENTS_QUEUE, async () => void (await identity.events.deliverPending()))
    await runner.schedule(EVENTS_QUEUE, EVENT_POLL_SECONDS)
  }
  if (overrides.housekeeping !== false) {
    runner.register(IDENTITY_HOUSEKEEPING_QUEUE, async () => void (await runHousekeeping(identity.deps)), { leaseSeconds: 300 })
    await runner.schedule(IDENTITY_HOUSEKEEPING_QUEUE, HOUSEKEEPING_SECONDS)
    await runner.schedule(DRIVE_HOUSEKEEPING_QUEUE, HOUSEKEEPING_SECONDS)
  }
  await runner.start()
  // onClose hooks run after the server has stopped and in-flight requests have finished, so
  // the database outlives every request and job that uses it.
  app.addHook('onClose', async () => {
    // Running jobs are told to stop and given a moment; one that does not stop in time keeps its
    // lease and is taken over after it runs out (a download resumes from its partial file).
    await jobs.close(JOB_STOP_GRACE_MS)
    // After the jobs: a torrent's run stops its download (keeping the data) before aria2 goes.
    await drive.torrents.close().catch((err: unknown) => logger.warn({ err }, 'closing the BitTorrent engine failed'))
    // identity.close() stops event delivery (waiting for a running delivery) before the database.
    await identity.close()
  })

  let closing: Promise<void> | undefined
  return {
    app,
    identity: identity.deps,
    drive,
    events: identity.events,
    jobs: jobs.runner,
    close: () => (closing ??= closeWithGrace(app, logger)),
  }
}

/**
 * How long requests still running when close() starts may take to finish. Then their
 * connections are cut, so the database closes and `cumulus serve` exits well within its
 * SHUTDOWN_TIMEOUT_MS even when a client stalls (a slow download, a body that never ends).
 */
export const IN_FLIGHT_GRACE_MS = 5_000

/**
 * Closes the app: no new connections, idle keep-alive connections closed at once (Node's
 * server.close()), upload bodies (PATCH, creation with upload) ended with the bytes they have
 * (the uploads' preClose hook), other requests given IN_FLIGHT_GRACE_MS, then the onClose hooks
 * (housekeeping, database).
 */
async function closeWithGrace(app: FastifyInstance, logger: Logger): Promise<void> {
  const cut = setTimeout(() => {
    logger.warn({ graceMs: IN_FLIGHT_GRACE_MS }, 'requests still running after the grace period; closing their connections')
    app.server.closeAllConnections()
  }, IN_FLIGHT_GRACE_MS)
  cut.unref()
  try {
    await app.close()
  } finally {
    clearTimeout(cut)
  }
}

/**
 * How often some node looks for events it was not told about: written by another node or by the
 * CLI, or waiting for a retry. A commit on this node delivers its own events at once.
 */
const EVENT_POLL_SECONDS = 5
const EVENTS_QUEUE = 'identity.events'
const IDENTITY_HOUSEKEEPING_QUEUE = 'identity.housekeeping'
/** Erasing due accounts, purging expired rows, trash, uploads and unused blobs. */
const HOUSEKEEPING_SECONDS = 600
/** How long running jobs get to stop at shutdown, within SHUTDOWN_TIMEOUT_MS with the request grace. */
const JOB_STOP_GRACE_MS = 2_000

/** The job runner on the product database: embedded on SQLite, pg-boss on PostgreSQL (its own schema). */
function openJobs(config: CumulusConfig, db: Kysely<any>, logger: Logger) {
  const { database } = config
  return openJobRunner({
    db,
    kind: database.kind,
    logger: logger.child({ part: 'jobs' }),
    ...(database.kind === 'postgres' ? { databaseUrl: database.url, ...(database.schema ? { postgresSchema: database.schema, pgBossSchema: `${database.schema}_pgboss` } : {}) } : {}),
  })
}

const DRIVE_PATHS = /^\/(drive|vip|decompress)\//

/** Errors on the drive's paths carry the `drive` domain, the rest `identity` (identity.md error body). */
function errorDomainOf(request: { url: string }): string {
  return DRIVE_PATHS.test(request.url) ? 'drive' : 'identity'
}

/** Logs the ffmpeg and ffprobe the drive will run, or a warning naming what is missing. Never throws. */
async function logMediaTools(drive: DriveDeps): Promise<void> {
  const { ffmpegPath, ffprobePath } = drive.config
  const [ffmpeg, ffprobe] = await Promise.all([toolVersion(ffmpegPath), toolVersion(ffprobePath)])
  if (ffmpeg && ffprobe) drive.logger.info({ ffmpeg, ffprobe }, 'media tools found')
  else drive.logger.warn({ ffmpegPath: ffmpeg ? undefined : ffmpegPath, ffprobePath: ffprobe ? undefined : ffprobePath }, 'ffmpeg or ffprobe not found: video thumbnails, probing and transcoding wait until they are installed (FFMPEG_PATH, FFPROBE_PATH)')
}

/** The drive's view of identity's users: a share shows its owner's nickname and picture, nothing else. */
function profilesOf(users: IdentityDeps['users']): DriveDeps['profiles'] {
  return {
    async find(userId) {
      const user = await users.findById(userId)
      return user ? { nickname: user.name, avatar: user.picture } : null
    },
  }
}
