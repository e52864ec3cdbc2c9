import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Loose, Str } from '../../http/schemas.js'
import { BATCH_ACTIONS, BATCH_MAX_IDS, emptyTrash, runBatch } from './batch.js'

const batchBody = Loose({
  ids: Type.Array(IdStr, { minItems: 1, maxItems: BATCH_MAX_IDS }),
  to: Type.Optional(Type.Union([Loose({ parent_id: Type.Optional(Type.Union([Str(128), Type.Null()])) }), Type.Null()])),
})

export async function batchRoutes(base: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  // The paths carry a literal colon ("files:batchTrash"); find-my-way reads "::" as one ":" rather
  // than the start of a parameter.
  for (const action of BATCH_ACTIONS) {
    app.post(`/drive/v1/files::${action}`, { preHandler: authenticate, schema: { body: batchBody } }, async (request) =>
      runBatch(deps, callerOf(request), action, { ids: request.body.ids, toParentId: request.body.to?.parent_id }),
    )
  }

  // Static, so it wins over PATCH /drive/v1/files/:id.
  app.patch('/drive/v1/files/trash::empty', { preHandler: authenticate }, async (request) => emptyTrash(deps, callerOf(request)))
}
