import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { authOf, authenticatedFirstParty } from '../../http/authenticate.js'
import { endOtherUserSessions, endUserSession, listUserSessions } from './user-sessions.js'

/**
 * Signed-in devices (not in the contract; the account page lists them and signs them out). First
 * party only: an app the user let in may not see or end the user's other sessions.
 */
export async function sessionRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const firstParty = authenticatedFirstParty(deps)

  app.get('/v1/user/sessions', { preHandler: firstParty }, async (request) => listUserSessions(deps, authOf(request)))
  // Registered before the parameterised route; a static segment wins in Fastify's router either way.
  app.delete('/v1/user/sessions/others', { preHandler: firstParty }, async (request) => endOtherUserSessions(deps, authOf(request)))
  app.delete(
    '/v1/user/sessions/:session_id',
    { preHandler: firstParty, schema: { params: Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) }) } },
    async (request) => endUserSession(deps, authOf(request), request.params.session_id),
  )
}
