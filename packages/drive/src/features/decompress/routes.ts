import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Loose, OptStr } from '../../http/schemas.js'
import { listArchiveLevel } from './list.js'

/** Archives in the drive (issue 14, drive.md "Decompress"). Listing only so far; unpacking is not built. */
export async function decompressRoutes(base: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.post(
    '/decompress/v1/list',
    { preHandler: authenticate, schema: { body: Loose({ gcid: OptStr(64), file_id: IdStr, path: OptStr(4096), password: OptStr(1024) }) } },
    async (request) => {
      const body = request.body
      const language = String(request.headers['accept-language'] ?? '').split(',')[0]?.trim() ?? ''
      return listArchiveLevel(deps, callerOf(request), { fileId: body.file_id, gcid: body.gcid ?? '', path: body.path ?? '', password: body.password ?? '', language })
    },
  )
}
