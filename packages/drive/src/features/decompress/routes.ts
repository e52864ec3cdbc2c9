import { Type } from '@sinclair/typebox'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { negotiateLocale } from '@cumulus/protocol'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Loose, OptStr, Str } from '../../http/schemas.js'
import { listArchiveLevel } from './list.js'
import { decompressProgress } from './progress.js'
import { MAX_CHOSEN_PATHS, startDecompress } from './start-decompress.js'

/** Archives in the drive (issue 14, drive.md "Decompress"): look inside, unpack as a task, follow its progress. */
export async function decompressRoutes(base: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const languageOf = (header: string | string[] | undefined) => String(header ?? '').split(',')[0]?.trim() ?? ''

  app.post(
    '/decompress/v1/list',
    { preHandler: authenticate, schema: { body: Loose({ gcid: OptStr(64), file_id: IdStr, path: OptStr(4096), password: OptStr(1024) }) } },
    async (request) => {
      const body = request.body
      return listArchiveLevel(deps, callerOf(request), { fileId: body.file_id, gcid: body.gcid ?? '', path: body.path ?? '', password: body.password ?? '', language: languageOf(request.headers['accept-language']) })
    },
  )

  app.post(
    '/decompress/v1/decompress',
    {
      preHandler: authenticate,
      schema: {
        body: Loose({
          gcid: OptStr(64),
          file_id: IdStr,
          password: OptStr(1024),
          files: Type.Optional(Type.Array(Loose({ path: Str(4096) }), { maxItems: MAX_CHOSEN_PATHS })),
          default_parent: Type.Optional(Type.Boolean()),
          parent_id: OptStr(128),
        }),
      },
    },
    async (request) => {
      const body = request.body
      return startDecompress(deps, callerOf(request), {
        fileId: body.file_id,
        gcid: body.gcid ?? '',
        password: body.password ?? '',
        paths: (body.files ?? []).map((f) => f.path),
        // Beside the archive unless the client names a folder.
        defaultParent: body.default_parent ?? body.parent_id === undefined,
        parentId: body.parent_id ?? '',
        language: languageOf(request.headers['accept-language']),
        locale: negotiateLocale(request.headers['accept-language']),
      })
    },
  )

  app.get('/decompress/v1/progress', { preHandler: authenticate, schema: { querystring: Loose({ task_id: Str(128) }) } }, async (request) =>
    decompressProgress(deps, callerOf(request), request.query.task_id),
  )
}
