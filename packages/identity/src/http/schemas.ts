import { Type } from '@sinclair/typebox'

/** Shared schema pieces. Lengths are capped so no field can be used to push megabytes through. */
export const Str = (maxLength = 256) => Type.String({ maxLength })
export const OptStr = (maxLength = 256) => Type.Optional(Type.String({ maxLength }))
export const ClientFields = {
  client_id: OptStr(128),
  client_secret: OptStr(256),
}
/** Request bodies accept unknown keys (clients send extras such as captcha_token, meta, sdk fields). */
export const Body = <T extends Parameters<typeof Type.Object>[0]>(properties: T) => Type.Object(properties, { additionalProperties: true })
export const Empty = Type.Object({}, { additionalProperties: true })
