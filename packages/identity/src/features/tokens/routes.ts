import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { DEFAULT_SCOPE } from '@cumulus/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { bearerTokenOf } from '../../http/authenticate.js'
import { callerContext, clientIdOf } from '../../http/request-context.js'
import { Body, ClientFields, OptStr, Str } from '../../http/schemas.js'
import { requireAuth } from './sessions.js'
import { REFRESH_TOKEN_GRANT, exchangeToken, grantTokens, introspectToken, revokeToken } from './token-grants.js'

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
    const client = deps.clients.require(basic?.id ?? clientIdOf(request), { secret: basic?.secret ?? request.body.client_secret, checkSecret: true })
    return grantTokens(deps, { grantType: request.body.grant_type, refreshToken: request.body.refresh_token, client })
  })

  app.post('/v1/auth/revoke', { schema: { body: Body({ token: OptStr(4096), token_type_hint: OptStr(64), ...ClientFields }) } }, async (request) => {
    const bearer = bearerTokenOf(request)
    return revokeToken(deps, { token: request.body.token, auth: bearer ? await requireAuth(deps, bearer) : null })
  })

  app.get('/v1/auth/token/introspect', { schema: { querystring: Body({ token: Str(4096), code: OptStr(512), client_id: OptStr(128) }) } }, async (request) =>
    introspectToken(deps, request.query.token),
  )

  app.post('/v1/auth/signin/token', { schema: { body: Body({ ...ClientFields, token: Str(4096) }) } }, async (request) => {
    const client = deps.clients.require(clientIdOf(request), { secret: request.body.client_secret, checkSecret: true })
    return exchangeToken(deps, { token: request.body.token, client, deviceId: callerContext(request).deviceId })
  })

  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300')
    return deps.keys.jwks()
  })

  app.get('/.well-known/openid-configuration', async () => {
    const issuer = deps.config.publicUrl
    return {
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      token_endpoint: `${issuer}/v1/auth/token`,
      revocation_endpoint: `${issuer}/v1/auth/revoke`,
      introspection_endpoint: `${issuer}/v1/auth/token/introspect`,
      userinfo_endpoint: `${issuer}/v1/user/me`,
      grant_types_supported: [REFRESH_TOKEN_GRANT],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      scopes_supported: DEFAULT_SCOPE.split(' '),
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
      response_types_supported: [],
    }
  })
}

function safeBasic(request: FastifyRequest) {
  try {
    return basicCredentials(request)
  } catch {
    return null
  }
}
