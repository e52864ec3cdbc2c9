import { AppError, GenericErrors } from '@cumulus/protocol'
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
export function authenticated(deps: Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions'>, options: { scope?: string } = {}): preHandlerAsyncHookHandler {
  return async (request) => {
    const auth = await requireAuth(deps, bearerTokenOf(request))
    // A token a third-party app got through consent carries only the scopes the user granted:
    // `pan` for the drive, `user` for the account (RFC 6750 3.1 insufficient_scope → 403).
    if (options.scope && !auth.scope.split(' ').includes(options.scope)) {
      throw new AppError(GenericErrors.permission_denied, { description: `this token's scope does not include ${options.scope}`, metadata: { scope: options.scope } })
    }
    request.auth = auth
  }
}

/**
 * The same for the calls only the product's own apps may make for the user: consent, device
 * approval and provider bindings. A third-party app's token must never grant itself (or another
 * app) more, nor bind identities to the account.
 */
export function authenticatedFirstParty(deps: Pick<IdentityDeps, 'config' | 'clock' | 'keys' | 'sessions' | 'clients'>): preHandlerAsyncHookHandler {
  return async (request) => {
    const auth = await requireAuth(deps, bearerTokenOf(request))
    const client = await deps.clients.find(auth.clientId)
    if (!client || (client.type ?? 'first_party') !== 'first_party') {
      throw new AppError(GenericErrors.permission_denied, { description: 'only the product\'s own apps may make this call' })
    }
    request.auth = auth
  }
}

/** `request.auth` on a route guarded by `authenticated`; a programming error elsewhere. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('route is missing the authenticated pre-handler')
  return request.auth
}
