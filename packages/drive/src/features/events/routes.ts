import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { Loose, OptStr } from '../../http/schemas.js'
import { listEvents } from './list-events.js'

/** Empty query values mean absent (drive.md). */
const present = (value: string | undefined) => (value === undefined || value === '' ? undefined : value)

export async function eventRoutes(base: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  app.get('/drive/v1/events', { preHandler: authenticate, schema: { querystring: Loose({ limit: OptStr(16), page_token: OptStr(1024) }) } }, async (request) =>
    listEvents(deps, callerOf(request), { limit: present(request.query.limit), pageToken: present(request.query.page_token) }),
  )
}
