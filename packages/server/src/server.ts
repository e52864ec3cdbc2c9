import type { AddressInfo } from 'node:net'
import { type IdentityDeps, baseServerOptions, httpKit, identityRoutes, startHousekeeping } from '@cumulus/identity'
import { webPlugin } from '@cumulus/web'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { type CumulusConfig, redactConfig } from './config.js'
import { loadKeys } from './keys.js'
import { createLogger } from './logger.js'
import { type InfrastructureOverrides, openIdentity } from './open-identity.js'

export interface BuildServerOverrides extends InfrastructureOverrides {
  /** Default: a pino logger at config.logLevel on stdout. */
  logger?: Logger
  /** Set false to skip the periodic housekeeping (erasing due accounts, purging expired rows). */
  housekeeping?: boolean
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
  /** Stops housekeeping, closes the app (in-flight requests finish) and then the database, counters and mailer. Idempotent. */
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
  try {
    app = Fastify(baseServerOptions(identity.deps, { trustProxy: config.trustProxy })) as unknown as FastifyInstance
    // One error renderer for the whole app. Its ErrorInfo domain is 'identity' while identity is
    // the only service; drive will need its own domain when it is mounted below.
    await app.register(httpKit, { corsOrigins: config.identity.corsOrigins, domain: 'identity' })
    await app.register(identityRoutes, { deps: identity.deps })

    // Later issues mount drive here, on the same app and origin: /drive/v1/..., /vip/v1/...,
    // /decompress/v1/..., reusing identity's `authenticated` pre-handler.

    // The web app answers every other GET/HEAD/POST (pages, their data requests, static assets).
    if (overrides.web !== false) await app.register(webPlugin, { publicConfig: config.web, ...(overrides.webRenderCache === false ? { renderCache: false as const } : {}) })

    // Liveness for load balancers and orchestrators; quiet in the logs since probes are frequent.
    app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }))

    app.addHook('onListen', async () => {
      const address = app.server.address() as AddressInfo | string | null
      const listen = typeof address === 'string' || address === null ? address : `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      logger.info({ listen, config: redactConfig(config) }, `Cumulus is serving ${config.publicUrl}`)
    })
  } catch (err) {
    await identity.close()
    throw err
  }

  const stopHousekeeping = overrides.housekeeping === false ? () => {} : startHousekeeping(identity.deps)
  // onClose hooks run after the server has stopped and in-flight requests have finished, so
  // the database outlives every request that uses it.
  app.addHook('onClose', async () => {
    stopHousekeeping()
    await identity.close()
  })

  let closing: Promise<void> | undefined
  return {
    app,
    identity: identity.deps,
    close: () => (closing ??= app.close()),
  }
}
