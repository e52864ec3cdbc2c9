import { Type } from '@sinclair/typebox'

const VipInfo = Type.Object({
  user_vas: Type.Integer(),
  is_vip: Type.Integer(),
  is_year: Type.Integer(),
  expire: Type.String(),
  vas_type: Type.String(),
  level: Type.Integer(),
  vip_icon: Type.Object({ large: Type.String(), small: Type.String() }),
})

/**
 * The `/v1/user/me` reply (identity.md "Users"). As a response schema it both speeds up
 * serialisation and guarantees that nothing outside the contract (a password hash, internal
 * timestamps) can reach the wire, whatever the domain object carries.
 */
export const UserProfileReply = Type.Object({
  sub: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone_number: Type.String(),
  picture: Type.String(),
  providers: Type.Array(Type.Object({ id: Type.String(), provider_user_id: Type.String(), name: Type.String() })),
  password: Type.String(),
  status: Type.String(),
  created_at: Type.String(),
  password_updated_at: Type.String(),
  vip_info: Type.Array(VipInfo),
})
