import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { Loose } from '../../http/schemas.js'
import type { DriveRouteOptions } from '../../http/route-options.js'
import { about, vipPrivilege, vipQuantities } from './about.js'

export async function aboutRoutes(app: FastifyInstance, { deps, authenticate, callerOf }: DriveRouteOptions) {
  app.get('/drive/v1/about', { preHandler: authenticate }, async (request) => about(deps, callerOf(request)))
  app.get('/drive/v1/privilege/vip', { preHandler: authenticate }, async (request) => vipPrivilege(deps, callerOf(request)))
  // The same reply under the path other clients of the commercial service use.
  app.get('/vip/v1/vip/info', { preHandler: authenticate }, async (request) => vipPrivilege(deps, callerOf(request)))
  app.get<{ Querystring: { type?: string } }>(
    '/vip/v1/quantity/list',
    { preHandler: authenticate, schema: { querystring: Loose({ type: Type.Optional(Type.String({ maxLength: 32, pattern: '^[a-z_]*$' })) }) } },
    async (request) => vipQuantities(deps, callerOf(request), request.query.type || 'transfer'),
  )
}
