import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { bearerTokenOf } from '../../http/authenticate.js'
import { callerContext, clientIdOf, deviceOf } from '../../http/request-context.js'
import { Body, ClientFields, OptStr, Str } from '../../http/schemas.js'
import { requireAuth } from './sessions.js'
import { exchangeToken, grantTokens, introspectToken, revokeToken } from './token-grants.js'

const TokenBody = Body({
  ...ClientFields,
  grant_type: Str(128),
  refresh_token: OptStr(256),
  code: OptStr(512),
  redirect_uri: OptStr(2048),
  code_verifier: OptStr(256),
  device_code: OptStr(512),
})

/** OAuth clients may authenticate with HTTP Basic (RFC 6749 2.3.1) instead of body fields. */
function basicCredentials(request: FastifyRequest): { id: string; secret: string } | null {
  const header = request.headers.authorization
  const match = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null
  if (!match) return null
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) }
}

export async function tokenRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.post('/v1/auth/token', { schema: { body: TokenBody } }, async (request) => {
    const basic = safeBasic(request)
    const client = await deps.clients.require(basic?.id ?? clientIdOf(request), { secret: basic?.secret ?? request.body.client_secret, checkSecret: true })
    const b = request.body
    return grantTokens(deps, {
      grantType: b.grant_type,
      client,
      refreshToken: b.refresh_token,
      code: b.code,
      redirectUri: b.redirect_uri,
      codeVerifier: b.code_verifier,
      deviceCode: b.device_code,
      device: callerContext(request),
    })
  })

  app.post('/v1/auth/revoke', { schema: { body: Body({ token: OptStr(4096), token_type_hint: OptStr(64), ...ClientFields }) } }, async (request) => {
    const bearer = bearerTokenOf(request)
    return revokeToken(deps, { token: request.body.token, auth: bearer ? await requireAuth(deps, bearer) : null })
  })

  app.get('/v1/auth/token/introspect', { schema: { querystring: Body({ token: Str(4096), code: OptStr(512), client_id: OptStr(128) }) } }, async (request) =>
    introspectToken(deps, request.query.token),
  )

  // RFC 7662 2.1: resource servers POST the token, form-encoded, authenticating as a client.
  app.post('/v1/auth/token/introspect', { schema: { body: Body({ ...ClientFields, token: Str(4096), token_type_hint: OptStr(64) }) } }, async (request) => {
    const basic = safeBasic(request)
    await deps.clients.require(basic?.id ?? clientIdOf(request), { secret: basic?.secret ?? request.body.client_secret, checkSecret: true })
    return introspectToken(deps, request.body.token)
  })

  app.post('/v1/auth/signin/token', { schema: { body: Body({ ...ClientFields, token: Str(4096) }) } }, async (request) => {
    const client = await deps.clients.require(clientIdOf(request), { secret: request.body.client_secret, checkSecret: true })
    return exchangeToken(deps, { token: request.body.token, client, ...deviceOf(callerContext(request)) })
  })

  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300')
    return deps.keys.jwks()
  })
}

export function safeBasic(request: FastifyRequest) {
  try {
    return basicCredentials(request)
  } catch {
    return null
  }
}
