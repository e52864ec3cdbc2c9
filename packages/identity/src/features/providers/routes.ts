import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { IdentityDeps } from '../../deps.js'
import { authOf, authenticatedFirstParty } from '../../http/authenticate.js'
import { callerContext, clientIdOf, deviceOf } from '../../http/request-context.js'
import { Body, ClientFields, OptStr, Str } from '../../http/schemas.js'
import { captchaGuard } from '../captcha/guard.js'
import { bindProvider, listBindings, providerToken, providerUri, renewProviderToken, signInWithProvider, transferBinding, transferByProvider, unbindProvider } from './providers.js'

// Configured ids are letters, digits and . _ -; anything else without NUL or a slash is simply unknown.
const ProviderId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000/]+$' })

const ProviderTokenBody = Body({
  ...ClientFields,
  provider_id: ProviderId,
  provider_redirect_uri: OptStr(2048),
  provider_code: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, pattern: '^[^\\u0000]*$' })),
  state: OptStr(512),
  iss: OptStr(2048),
  provider_access_token: Type.Optional(Type.String({ minLength: 1, maxLength: 8192, pattern: '^[^\\u0000]*$' })),
  provider_id_token: Type.Optional(Type.String({ minLength: 1, maxLength: 16384, pattern: '^[^\\u0000]*$' })),
})

export async function providerRoutes(base: FastifyInstance, { deps }: { deps: IdentityDeps }) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const auth = authenticatedFirstParty(deps)
  /** The client the bearer's session belongs to: provider tokens are spent only by the client they were issued to. */
  const bearerClient = (request: Parameters<typeof authOf>[0]) => deps.clients.require(authOf(request).clientId)

  app.get('/v1/auth/providers', async () => ({ providers: deps.providers.list() }))

  app.get(
    '/v1/auth/provider/uri',
    { schema: { querystring: Body({ client_id: OptStr(128), provider_id: ProviderId, redirect_uri: Str(2048), state: OptStr(512), scope: OptStr(1024), other_params: OptStr(4096), sign_out_uri: OptStr(2048) }) } },
    async (request) => {
      const client = await deps.clients.require(clientIdOf(request))
      const q = request.query
      return providerUri(deps, { client, providerId: q.provider_id, redirectUri: q.redirect_uri, state: q.state, scope: q.scope, ip: callerContext(request).ip })
    },
  )

  app.post('/v1/auth/provider/token', { schema: { body: ProviderTokenBody } }, async (request) => {
    const client = await deps.clients.require(clientIdOf(request), { secret: request.body.client_secret, checkSecret: true })
    const b = request.body
    return providerToken(deps, {
      client,
      providerId: b.provider_id,
      redirectUri: b.provider_redirect_uri,
      code: b.provider_code,
      state: b.state,
      iss: b.iss,
      idToken: b.provider_id_token,
      accessToken: b.provider_access_token,
    })
  })

  app.patch('/v1/auth/provider/token', { schema: { body: Body({ ...ClientFields, provider_token: Str(256) }) } }, async (request) => {
    const client = await deps.clients.require(clientIdOf(request), { secret: request.body.client_secret, checkSecret: true })
    return renewProviderToken(deps, { client, providerToken: request.body.provider_token })
  })

  app.post('/v1/auth/signin/with/provider', { schema: { body: Body({ ...ClientFields, provider_token: Str(256) }) } }, async (request) => {
    const client = await deps.clients.require(clientIdOf(request), { secret: request.body.client_secret, checkSecret: true })
    return signInWithProvider(deps, { client, providerToken: request.body.provider_token, ...deviceOf(callerContext(request)) })
  })

  app.post('/v1/user/provider/bind', { preHandler: auth, schema: { body: Body({ provider_token: Str(256) }) } }, async (request) =>
    bindProvider(deps, authOf(request), { client: await bearerClient(request), providerToken: request.body.provider_token }),
  )

  app.get('/v1/user/provider', { preHandler: auth }, async (request) => ({ data: await listBindings(deps, authOf(request).userId) }))

  app.delete('/v1/user/provider/:provider_id', { preHandler: [auth, captchaGuard(deps, { concretePath: true })], schema: { params: Type.Object({ provider_id: ProviderId }) } }, async (request) =>
    unbindProvider(deps, authOf(request), request.params.provider_id),
  )

  app.post(
    '/v1/user/provider/:provider_id/trans',
    { preHandler: auth, schema: { params: Type.Object({ provider_id: ProviderId }), body: Body({ provider_trans_token: Str(256) }) } },
    async (request) => transferBinding(deps, authOf(request), { client: await bearerClient(request), providerId: request.params.provider_id, transToken: request.body.provider_trans_token }),
  )

  app.patch('/v1/user/trans/by/provider', { preHandler: auth, schema: { body: Body({ provider_token: Str(256) }) } }, async (request) =>
    transferByProvider(deps, authOf(request), { client: await bearerClient(request), providerToken: request.body.provider_token }),
  )
}
