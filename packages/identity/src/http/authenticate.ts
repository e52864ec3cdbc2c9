import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import type { IdentityDeps } from '../deps.js'
import { type AuthContext, requireAuth } from '../features/tokens/sessions.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticated` pre-handler; null on routes that do not require a bearer. */
    auth: AuthContext | null
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i

export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  return typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined
}

/** Decorates every request with `auth` (null until a route's pre-handler fills it). */
export const authContext = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('auth', null)
  },
  { fastify: '5.x', name: 'cumulus-auth-context' },
)

/**
 * A pre-handler that requires a valid bearer access token with a live session and sets
 * `request.auth`; otherwise `unauthenticated` (16, 401). Drive routes use the same one.
 */
export function authenticated(deps: Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions'>): preHandlerAsyncHookHandler {
  return async (request) => {
    request.auth = await requireAuth(deps, bearerTokenOf(request))
  }
}

/** `request.auth` on a route guarded by `authenticated`; a programming error elsewhere. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('route is missing the authenticated pre-handler')
  return request.auth
}
