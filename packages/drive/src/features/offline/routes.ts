import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { Loose, OptStr } from '../../http/schemas.js'
import { PREVIEW_MAX_LINKS, previewResources } from './preview.js'
import { OFFLINE_URL_MAX_LENGTH } from './offline-url.js'

export async function offlineRoutes(base: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  // page_size and thumbnail_type are accepted and ignored (every link is listed, without thumbnails).
  app.post(
    '/drive/v1/resource/list',
    { preHandler: authenticate, schema: { body: Loose({ urls: OptStr(PREVIEW_MAX_LINKS * (OFFLINE_URL_MAX_LENGTH + 2)), torrent_file_id: OptStr(64) }) } },
    async (request) => previewResources(deps, callerOf(request), request.body, request.ip),
  )
}
