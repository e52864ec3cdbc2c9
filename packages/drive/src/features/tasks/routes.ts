import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { IdStr, Loose, OptStr, QueryBool, Str } from '../../http/schemas.js'
import { TASKS_DELETE_MAX_IDS, deleteTasks, getTask, listTasks, retryTask } from './tasks.js'

/** Empty query values mean absent (drive.md). */
const present = (value: string | undefined) => (value === undefined || value === '' ? undefined : value)

export async function taskRoutes(base: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get(
    '/drive/v1/tasks',
    { preHandler: authenticate, schema: { querystring: Loose({ type: OptStr(32), limit: OptStr(16), page_token: OptStr(1024), filters: OptStr(8192) }) } },
    async (request) => {
      const q = request.query
      return listTasks(deps, callerOf(request), { type: present(q.type), limit: present(q.limit), pageToken: present(q.page_token), filters: present(q.filters) })
    },
  )

  app.get('/drive/v1/tasks/:id', { preHandler: authenticate, schema: { params: Type.Object({ id: IdStr }) } }, async (request) => getTask(deps, callerOf(request), request.params.id))

  // task_ids comma-joined or repeated (a single value arrives as a one-item array).
  app.delete(
    '/drive/v1/tasks',
    { preHandler: authenticate, schema: { querystring: Loose({ task_ids: Type.Optional(Type.Array(Str(64 * 1024), { maxItems: TASKS_DELETE_MAX_IDS })), delete_files: Type.Optional(QueryBool) }) } },
    async (request) => {
      const q = request.query
      return deleteTasks(deps, callerOf(request), { taskIds: q.task_ids ?? [], deleteFiles: q.delete_files === true || q.delete_files === 'true' })
    },
  )

  app.post(
    '/drive/v1/task',
    { preHandler: authenticate, schema: { body: Loose({ type: OptStr(32), create_type: OptStr(32), id: IdStr }) } },
    async (request) => retryTask(deps, callerOf(request), { type: request.body.type, createType: request.body.create_type, id: request.body.id }),
  )
}
