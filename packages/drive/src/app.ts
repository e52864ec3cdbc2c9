import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { Caller, DriveDeps } from './deps.js'
import { aboutRoutes } from './features/about/routes.js'
import { batchRoutes } from './features/batch/routes.js'
import { decompressRoutes } from './features/decompress/routes.js'
import { eventRoutes } from './features/events/routes.js'
import { downloadRoutes } from './features/downloads/routes.js'
import { thumbnailRoutes } from './features/thumbnails/routes.js'
import { mediaRoutes } from './features/media/routes.js'
import { fileRoutes } from './features/files/routes.js'
import { createOfflineTask } from './features/offline/create-offline-task.js'
import { offlineRoutes } from './features/offline/routes.js'
import { searchRoutes } from './features/search/routes.js'
import { shareRoutes } from './features/shares/routes.js'
import { taskRoutes } from './features/tasks/routes.js'
import { createUpload } from './features/uploads/create-upload.js'
import { uploadRoutes } from './features/uploads/routes.js'
import type { DriveRouteOptions } from './http/route-options.js'

export interface DriveRoutesOptions {
  deps: DriveDeps
  /** Identity's bearer check: sets the request's auth context or answers 401 (error 16). */
  authenticate: preHandlerAsyncHookHandler
  /** The caller of a request that passed `authenticate` (identity's `authOf` fits). */
  callerOf(request: FastifyRequest): Caller
}

/**
 * Every drive route (drive.md "Calls"), as one encapsulated plugin the server mounts beside
 * identity and web. The one place (with housekeeping.ts) that imports several features: features
 * share code only through `domain/` (see domain/index.ts).
 */
export async function driveRoutes(app: FastifyInstance, options: DriveRoutesOptions) {
  const routeOptions: DriveRouteOptions = { deps: options.deps, authenticate: options.authenticate, callerOf: options.callerOf }
  const { deps } = options
  await app.register(fileRoutes, {
    ...routeOptions,
    creators: {
      upload: (caller, body) => createUpload(deps, caller, body),
      offline: (caller, body, locale) => createOfflineTask(deps, caller, body, locale),
    },
  })
  await app.register(aboutRoutes, routeOptions)
  await app.register(uploadRoutes, routeOptions)
  await app.register(downloadRoutes, routeOptions)
  await app.register(thumbnailRoutes, routeOptions)
  await app.register(mediaRoutes, routeOptions)
  await app.register(batchRoutes, routeOptions)
  await app.register(taskRoutes, routeOptions)
  await app.register(offlineRoutes, routeOptions)
  await app.register(eventRoutes, routeOptions)
  await app.register(decompressRoutes, routeOptions)
  await app.register(searchRoutes, routeOptions)
  await app.register(shareRoutes, routeOptions)
}
