import type { UserProfile, VipInfo } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { buildUserInfo, findVipEntry, sessionIdOf, userInfoFromHost } from './user-info.js'

const vip = (over: Partial<VipInfo>): VipInfo => ({
  user_vas: 2, is_vip: 1, is_year: 0, expire: '2030-01-01T00:00:00Z', vas_type: 'vip', level: 3,
  vip_icon: { large: 'L', small: 'S' }, ...over,
})
const profile = (vipInfo: VipInfo[]): UserProfile => ({
  sub: 'u1', name: 'Alice', email: 'a@b.c', phone_number: '+1', picture: 'P', providers: [], password: 'SET',
  status: 'ACTIVE', created_at: '', password_updated_at: '', vip_info: vipInfo,
})
const jwt = (claims: object) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.s`
const credentials = { access_token: jwt({ sid: 'sess-1' }), refresh_token: 'r', token_type: 'Bearer', expires_in: 1, expires_at: 1, sub: 'u1' }

describe('VIP', () => {
  it('uses the entry with user_vas 2', () => {
    expect(findVipEntry([vip({ user_vas: 1, level: 9 }), vip({ level: 3 })])?.level).toBe(3)
    expect(findVipEntry([vip({ user_vas: 1 })])).toBeNull()
    expect(findVipEntry(undefined)).toBeNull()
  })

  it('is VIP when is_vip is not 0, yearly when is_year is 1', () => {
    const info = buildUserInfo({ credentials, profile: profile([vip({ is_year: 1 })]), deviceId: 'd', isLogin: true })
    expect(info).toEqual({
      sessionId: 'sess-1', avatar: 'P', nickname: 'Alice', username: 'a@b.c', userNo: 'u1', userId: 'u1', deviceId: 'd',
      phoneNumber: '+1', email: 'a@b.c', isLogin: true, isVip: true, vipType: 'vip', vipLevel: 3, vipIcon: 'S',
      vipExpires: '2030-01-01T00:00:00Z', isYear: true, curUser: profile([vip({ is_year: 1 })]),
    })
    const plain = buildUserInfo({ credentials, profile: profile([vip({ is_vip: 0 })]), deviceId: 'd', isLogin: true })
    expect([plain.isVip, plain.isYear]).toEqual([false, false])
  })

  it('is empty when signed out', () => {
    const info = buildUserInfo({ credentials, profile: profile([vip({})]), deviceId: 'd', isLogin: false })
    expect(info).toMatchObject({ isLogin: false, userId: '', nickname: '', isVip: false, curUser: null, deviceId: 'd', sessionId: '' })
  })
})

it('reads the sid claim and survives junk tokens', () => {
  expect(sessionIdOf(jwt({ sid: 'x' }))).toBe('x')
  expect(sessionIdOf('not-a-jwt')).toBe('')
  expect(sessionIdOf('a.!!!.b')).toBe('')
  expect(sessionIdOf(undefined)).toBe('')
})

it('takes the Android host user info field by field, ignoring wrong types', () => {
  const info = userInfoFromHost({ userId: 'u9', isLogin: true, isVip: 'yes', nickname: 'N' }, 'dev')
  expect(info).toMatchObject({ userId: 'u9', isLogin: true, isVip: false, nickname: 'N', deviceId: 'dev' })
})
