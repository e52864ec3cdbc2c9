import { describe, expect, it } from 'vitest'
import { vipViewOf } from './vip-view'

const base = { isVip: false, vipType: '', vipLevel: 0, vipExpires: '', isYear: false, vipIcon: '', curUser: null }
const now = new Date('2026-06-01T00:00:00Z')

describe('vipViewOf', () => {
  it('shows a member with plan, level, expiry, yearly flag and icon', () => {
    const view = vipViewOf({ ...base, isVip: true, vipType: 'vip', vipLevel: 2, vipExpires: '2027-03-15T00:00:00Z', isYear: true, vipIcon: 'https://x/vip-small.svg' }, now)
    expect(view).toEqual({ kind: 'member', typeLabel: 'VIP', level: 2, expiresAt: new Date('2027-03-15T00:00:00Z'), isYear: true, iconUrl: 'https://x/vip-small.svg' })
  })

  it('names other plans by their vas_type and falls back to VIP for an odd one', () => {
    expect(vipViewOf({ ...base, isVip: true, vipType: 'svip' }, now)).toMatchObject({ kind: 'member', typeLabel: 'SVIP' })
    expect(vipViewOf({ ...base, isVip: true, vipType: 'novip' }, now)).toMatchObject({ kind: 'member', typeLabel: 'VIP' })
  })

  it('gives a member without a readable expiry no date rather than Invalid Date', () => {
    expect(vipViewOf({ ...base, isVip: true, vipType: 'vip', vipExpires: 'soon' }, now)).toMatchObject({ expiresAt: null })
  })

  it('treats a never-member (expiry = account creation) as never having had a membership', () => {
    const created = '2026-01-05T08:00:00Z'
    const view = vipViewOf({ ...base, vipType: 'novip', vipExpires: created, curUser: { created_at: created } as never }, now)
    expect(view).toEqual({ kind: 'none', endedAt: null })
  })

  it('reports when a lapsed membership ended', () => {
    const view = vipViewOf({ ...base, vipType: 'novip', vipExpires: '2026-04-01T00:00:00Z', curUser: { created_at: '2026-01-05T08:00:00Z' } as never }, now)
    expect(view).toEqual({ kind: 'none', endedAt: new Date('2026-04-01T00:00:00Z') })
  })

  it('shows no VIP entry at all (no user_vas 2 entry) as not a member', () => {
    expect(vipViewOf(base, now)).toEqual({ kind: 'none', endedAt: null })
  })
})
