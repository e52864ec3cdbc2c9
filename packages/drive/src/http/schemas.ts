import { Type } from '@sinclair/typebox'

// Shared request schema pieces. No string may carry U+0000 (PostgreSQL text cannot hold it) and
// every length is capped, so no field can push megabytes through.
const NO_NUL = '^[^\\u0000]*$'
export const Str = (maxLength = 256) => Type.String({ maxLength, pattern: NO_NUL })
export const OptStr = (maxLength = 256) => Type.Optional(Str(maxLength))
/** Ids in paths and bodies; anything else is simply "not found". */
export const IdStr = Type.String({ maxLength: 128, pattern: NO_NUL })
/** Query strings and bodies accept unknown keys (drive.md: `thumbnail_size`, `with_audit`…). */
export const Loose = <T extends Parameters<typeof Type.Object>[0]>(properties: T) => Type.Object(properties, { additionalProperties: true })
/** Large numbers may come as JSON numbers or strings (drive.md). */
export const Int64 = Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ pattern: '^\\d{1,16}$' })])
/** Booleans in query strings. */
export const QueryBool = Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')])
