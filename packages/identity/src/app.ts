import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { IdentityDeps } from './deps.js'
import { accountRoutes } from './features/account/routes.js'
import { captchaRoutes } from './features/captcha/routes.js'
import { signInRoutes } from './features/sign-in/routes.js'
import { signUpRoutes } from './features/sign-up/routes.js'
import { tokenRoutes } from './features/tokens/routes.js'
import { userRoutes } from './features/users/routes.js'
import { membershipRoutes } from './features/membership/routes.js'
import { oauthRoutes } from './features/oauth/routes.js'
import { providerRoutes } from './features/providers/routes.js'
import { sessionRoutes } from './features/sessions/routes.js'
import { verificationRoutes } from './features/verification/routes.js'
import { MAX_JSON_BODY_BYTES } from './http/body-parsers.js'
import { clientErrorHandler } from './http/client-error.js'
import { sendError, toAppError } from './http/error-handler.js'
import { httpKit, requestIdOf } from './http/http-kit.js'

export interface IdentityRoutesOptions {
  deps: IdentityDeps
}

/** Every identity route, as one encapsulated plugin the server can mount beside drive and web. */
export async function identityRoutes(app: FastifyInstance, { deps }: IdentityRoutesOptions) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>()
  // Identity replies carry tokens (sign-in, sign-up, the token grant, sudo) or personal data
  // (/v1/user/me): no cache, shared or the browser's, may keep them (RFC 6749 5.1). One rule for
  // every reply of these routes, errors included, so a new route cannot forget it; the public
  // documents (the JWKS, discovery, icons) set their own Cache-Control in their handlers.
  typed.addHook('onRequest', (_request, reply, done) => {
    reply.header('cache-control', 'no-store')
    reply.header('pragma', 'no-cache')
    done()
  })
  await typed.register(captchaRoutes, { deps })
  await typed.register(verificationRoutes, { deps })
  await typed.register(signUpRoutes, { deps })
  await typed.register(signInRoutes, { deps })
  await typed.register(tokenRoutes, { deps })
  await typed.register(userRoutes, { deps })
  await typed.register(membershipRoutes, { deps })
  await typed.register(accountRoutes, { deps })
  await typed.register(providerRoutes, { deps })
  await typed.register(oauthRoutes, { deps })
  await typed.register(sessionRoutes, { deps })
}

/** Fastify options every Cumulus app uses: request ids, body limit, proxy trust, logger. */
export function baseServerOptions(
  deps: Pick<IdentityDeps, 'logger'>,
  options: { trustProxy?: boolean | number | string; domain?: string | ((request: FastifyRequest) => string) } = {},
): FastifyServerOptions {
  const domainOf = (request: FastifyRequest) => (typeof options.domain === 'function' ? options.domain(request) : (options.domain ?? 'identity'))
  return {
    // Errors Fastify raises before routing (a malformed %-escape in the path, an over-long path
    // parameter) skip hooks and the error handler; render them in the contract shape too.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id)
      return sendError(request, reply, toAppError(error), domainOf(request))
    },
    // Requests Node's parser refuses never reach Fastify's routing (20 KB of headers, a
    // `Content-Length: abc`); they get the contract's body too, written by hand.
    clientErrorHandler: clientErrorHandler((path) => domainOf({ url: path } as FastifyRequest)),
    // Node answers an HTTP/1.1 request without Host with its own empty 400; the HTTP kit refuses
    // it instead, in the contract's shape (httpKit's onRequest hook).
    http: { requireHostHeader: false },
    loggerInstance: deps.logger,
    genReqId: (req) => requestIdOf(req.headers['x-request-id']),
    bodyLimit: MAX_JSON_BODY_BYTES,
    trustProxy: options.trustProxy ?? false,
    // Ignore a trailing slash and repeated slashes, as the commercial service's clients sometimes send them.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
  } as FastifyServerOptions
}

/** The identity service as a standalone app (tests, and `cumulus serve --only identity`). Never listens. */
export async function buildIdentityApp(deps: IdentityDeps, options: { trustProxy?: boolean | number | string } = {}): Promise<FastifyInstance> {
  const app = Fastify(baseServerOptions(deps, options)) as unknown as FastifyInstance
  await app.register(httpKit, { corsOrigins: deps.config.corsOrigins, domain: 'identity' })
  await app.register(identityRoutes, { deps })
  return app
}
