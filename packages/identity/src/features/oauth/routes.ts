import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { OAUTH_SCOPES, negotiateLocale, matchLocale } from '@cumulus/protocol'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { authOf, authenticated, authenticatedFirstParty } from '../../http/authenticate.js'
import { callerContext, clientIdOf } from '../../http/request-context.js'
import { Body, ClientFields, OptStr, Str } from '../../http/schemas.js'
import { safeBasic } from '../tokens/routes.js'
import { REFRESH_TOKEN_GRANT } from '../tokens/token-grants.js'
import { AUTHORIZATION_CODE_GRANT, authorize, authorizeDetect, authorizeInfo, connectedApps, disconnectApp, userInfo } from './authorize.js'
import { DEVICE_CODE_GRANT, authorizeDevice, deviceInfo, startDeviceAuthorization } from './device.js'

const AuthorizeQuery = {
  client_id: OptStr(128),
  response_type: OptStr(64),
  redirect_uri: OptStr(2048),
  scope: OptStr(1024),
  state: OptStr(1024),
  code_challenge: OptStr(256),
  code_challenge_method: OptStr(16),
  nonce: OptStr(512),
  prompt: OptStr(64),
  sign_out_uri: OptStr(2048),
  locale: OptStr(35),
}

/** The language of scope descriptions: the `locale` parameter when it names one of the six, else Accept-Language. */
function localeOf(request: FastifyRequest, locale: string | undefined): string {
  return matchLocale(locale) ?? negotiateLocale(request.headers['accept-language'])
}

export async function oauthRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const auth = authenticated(deps)
  const firstParty = authenticatedFirstParty(deps)

  // The front-channel entry of the code flow: the consent page of the web app takes it from here
  // (it signs the user in first when needed, and calls the /v1/user/authorize routes).
  app.get('/v1/auth/authorize', { schema: { querystring: Body(AuthorizeQuery) } }, async (request, reply) => {
    const query = new URLSearchParams()
    for (const [key, value] of Object.entries(request.query)) if (typeof value === 'string') query.set(key, value)
    // Relative: the browser stays on the host it came by (its session lives in that origin's storage).
    return reply.redirect(`/authorize?${query.toString()}`, 302)
  })

  app.get('/v1/user/authorize/info', { schema: { querystring: Body(AuthorizeQuery) } }, async (request) => {
    const q = request.query
    return authorizeInfo(deps, { ...q, client_id: q.client_id ?? clientIdOf(request) }, localeOf(request, q.locale))
  })

  app.get('/v1/user/authorize/detect', { preHandler: firstParty, schema: { querystring: Body({ client_id: OptStr(128), scope: OptStr(1024) }) } }, async (request) =>
    authorizeDetect(deps, authOf(request), { clientId: request.query.client_id ?? clientIdOf(request), scope: request.query.scope }),
  )

  app.post('/v1/user/authorize', { preHandler: firstParty, schema: { body: Body({ ...AuthorizeQuery, consent: Type.Boolean() }) } }, async (request) => {
    const b = request.body
    return authorize(deps, authOf(request), b, b.consent)
  })

  // Connected apps (not in the contract; the account page lists and disconnects them).
  app.get('/v1/user/authorize/clients', { preHandler: firstParty, schema: { querystring: Body({ locale: OptStr(35) }) } }, async (request) =>
    connectedApps(deps, authOf(request), localeOf(request, request.query.locale)),
  )
  app.delete('/v1/user/authorize/clients/:client_id', { preHandler: firstParty, schema: { params: Type.Object({ client_id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000/]+$' }) }) } }, async (request) =>
    disconnectApp(deps, authOf(request), request.params.client_id),
  )

  app.post('/v1/auth/device/code', { schema: { body: Body({ ...ClientFields, scope: OptStr(1024) }) } }, async (request) => {
    const basic = safeBasic(request)
    const client = await deps.clients.require(basic?.id ?? clientIdOf(request), { secret: basic?.secret ?? request.body.client_secret, checkSecret: true })
    return startDeviceAuthorization(deps, { client, scope: request.body.scope, ip: callerContext(request).ip })
  })

  app.get('/v1/user/device/info', { preHandler: firstParty, schema: { querystring: Body({ user_code: Str(64), locale: OptStr(35) }) } }, async (request) =>
    deviceInfo(deps, authOf(request), { userCode: request.query.user_code, locale: localeOf(request, request.query.locale) }),
  )

  app.post('/v1/user/device/authorize', { preHandler: firstParty, schema: { body: Body({ user_code: Str(64), consent: Type.Boolean() }) } }, async (request) =>
    authorizeDevice(deps, authOf(request), { userCode: request.body.user_code, consent: request.body.consent }),
  )

  app.get('/v1/auth/userinfo', { preHandler: auth }, async (request) => userInfo(authOf(request)))
  app.post('/v1/auth/userinfo', { preHandler: auth }, async (request) => userInfo(authOf(request)))

  app.get('/.well-known/openid-configuration', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300')
    const issuer = deps.config.publicUrl
    return {
      issuer,
      authorization_endpoint: `${issuer}/v1/auth/authorize`,
      token_endpoint: `${issuer}/v1/auth/token`,
      device_authorization_endpoint: `${issuer}/v1/auth/device/code`,
      userinfo_endpoint: `${issuer}/v1/auth/userinfo`,
      revocation_endpoint: `${issuer}/v1/auth/revoke`,
      introspection_endpoint: `${issuer}/v1/auth/token/introspect`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: [AUTHORIZATION_CODE_GRANT, REFRESH_TOKEN_GRANT, DEVICE_CODE_GRANT],
      code_challenge_methods_supported: ['S256', 'plain'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      introspection_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      scopes_supported: [...OAUTH_SCOPES],
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'azp', 'at_hash', 'name', 'picture', 'email', 'email_verified', 'phone_number', 'phone_number_verified'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [deps.keys.idTokenAlg],
      authorization_response_iss_parameter_supported: true,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      claims_parameter_supported: false,
    }
  })
}
