import { Type } from '@sinclair/typebox'

/**
 * No string field may carry U+0000: PostgreSQL text cannot hold it (the query fails with
 * "invalid byte sequence for encoding UTF8: 0x00", a 500), and no identifier, token, name or
 * password of the protocol needs it. Refused up front as invalid_argument naming the field.
 */
const NO_NUL = '^[^\\u0000]*$'

/** Shared schema pieces. Lengths are capped so no field can be used to push megabytes through. */
export const Str = (maxLength = 256) => Type.String({ maxLength, pattern: NO_NUL })
export const OptStr = (maxLength = 256) => Type.Optional(Str(maxLength))
export const ClientFields = {
  client_id: OptStr(128),
  client_secret: OptStr(256),
}
/** Request bodies accept unknown keys (clients send extras such as captcha_token, meta, sdk fields). */
export const Body = <T extends Parameters<typeof Type.Object>[0]>(properties: T) => Type.Object(properties, { additionalProperties: true })
