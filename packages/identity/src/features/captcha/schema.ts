import { Type } from '@sinclair/typebox'
import { Body, ClientFields, OptStr } from '../../http/schemas.js'
import { MAX_SIGNED_LENGTH } from './signed-payload.js'

const MAX_URL_LENGTH = 2048

/** `POST /v1/shield/captcha/init`. `meta` is any JSON (clients put assorted keys there); never an error. */
export const CaptchaInitBody = Body({
  client_id: ClientFields.client_id,
  action: Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH }),
  device_id: OptStr(1024),
  captcha_token: OptStr(MAX_SIGNED_LENGTH),
  redirect_uri: OptStr(MAX_URL_LENGTH),
  meta: Type.Optional(Type.Unknown()),
})

export const CaptchaInitReplySchema = Type.Union([
  Type.Object({ captcha_token: Type.String(), expires_in: Type.Integer() }),
  Type.Object({ url: Type.String(), expires_in: Type.Integer() }),
])

/** `GET /captcha/challenge`: the caller adds redirect_uri and state to the URL captcha init gave. */
export const ChallengePageQuery = Type.Object({
  challenge: Type.String({ minLength: 1, maxLength: MAX_SIGNED_LENGTH }),
  redirect_uri: OptStr(MAX_URL_LENGTH),
  state: OptStr(1024),
  locale: OptStr(64),
})

/** `POST /captcha/challenge/verify`, sent by the challenge page's script. */
export const ChallengeVerifyBody = Body({
  challenge: Type.String({ minLength: 1, maxLength: MAX_SIGNED_LENGTH }),
  nonce: Type.String({ minLength: 1, maxLength: 64 }),
  redirect_uri: OptStr(MAX_URL_LENGTH),
  state: OptStr(1024),
})

export const ChallengeVerifyReplySchema = Type.Object({
  captcha_token: Type.String(),
  expires_in: Type.Integer(),
  state: Type.String(),
  redirect_to: Type.String(),
})
