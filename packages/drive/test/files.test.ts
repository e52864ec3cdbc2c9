import { createActivationCodes } from '@cumulus/identity'
import { compareCodePoints, driveNameKey } from '@cumulus/protocol'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'

let t: DriveTestApp
beforeAll(async () => {
  t = await startDriveTestApp()
})
afterAll(async () => {
  await t?.close()
})

async function folder(token: string, name: string, parentId = '') {
  const reply = await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#folder', name, parent_id: parentId } })
  expect(reply.status).toBe(200)
  return reply.body.file as { id: string; name: string }
}

describe('folders and listing', () => {
  it('creates folders with clash suffixes and lists them in natural order', async () => {
    const token = await t.signUp()
    const a = await folder(token, 'file10')
    await folder(token, 'file2')
    const clash = await folder(token, 'file10')
    expect(a.name).toBe('file10')
    expect(clash.name).toBe('file10(1)')
    const list = await t.call('GET', '/drive/v1/files', { token, query: { parent_id: '' } })
    expect(list.status).toBe(200)
    expect(list.body.files.map((f: { name: string }) => f.name)).toEqual(['file2', 'file10', 'file10(1)'])
    expect(list.body.next_page_token).toBe('')
    expect(list.body.files[0]).toMatchObject({ kind: 'drive#folder', size: '0', parent_id: '', delete_time: '', phase: 'PHASE_TYPE_COMPLETE' })
  })

  it('lists names in the order clients compute with the protocol’s key, whatever the names (so a new file lands where a reload puts it)', async () => {
    const token = await t.signUp()
    const name = fc
      .oneof(
        fc.constantFrom('report.txt', 'report(1).txt', 'Report 2.txt', 'report 10.txt', 'Ärger', 'arger', 'ｆｕｌｌ', '😀 smile', '\uffeb arrow', 'a\u0301', 'file007', 'file7', 'z'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
      )
      .filter((n) => n.trim() !== '' && !n.includes('/') && !/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(n) && n.trim() !== '.' && n.trim() !== '..')
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(name, { minLength: 2, maxLength: 8, selector: (n) => n.normalize('NFC').trim() }), async (names) => {
        const parent = await folder(token, `order-${Math.random().toString(36).slice(2)}`)
        for (const n of names) await folder(token, n, parent.id)
        const list = await t.call('GET', '/drive/v1/files', { token, query: { parent_id: parent.id, limit: '100' } })
        const listed = (list.body.files as { id: string; name: string }[]).map((f) => ({ id: f.id, name: f.name }))
        const computed = [...listed].sort((a, b) => compareCodePoints(driveNameKey(a.name), driveNameKey(b.name)) || compareCodePoints(a.id, b.id))
        expect(listed.map((f) => f.name)).toEqual(computed.map((f) => f.name))
      }),
      { numRuns: 25 },
    )
  })

  it('ends parallel creates of one name in suffixes, never a 5xx', async () => {
    // Issue 11: on PostgreSQL, 20 parallel creates of one folder name gave 9 × 500.
    const token = await t.signUp()
    const replies = await Promise.all(Array.from({ length: 20 }, () => t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#folder', name: 'Racing', parent_id: '' } })))
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200))
    const names = replies.map((r) => r.body.file.name as string).sort()
    expect(names).toEqual(['Racing', ...Array.from({ length: 19 }, (_, i) => `Racing(${i + 1})`)].sort())
  })

  it('pages with a cursor in both directions of every order', async () => {
    const token = await t.signUp()
    const parent = await folder(token, 'big')
    const names = Array.from({ length: 23 }, (_, i) => `n${i}`)
    for (const n of names) await folder(token, n, parent.id)
    for (const [orderBy, direction] of [['name', 'asc'], ['name', 'desc'], ['modified_time', 'desc'], ['size', 'asc']] as const) {
      const seen: string[] = []
      let pageToken = ''
      do {
        const page = await t.call('GET', '/drive/v1/files', { token, query: { parent_id: parent.id, limit: '5', page_token: pageToken, order_by: orderBy, direction } })
        expect(page.status).toBe(200)
        expect(page.body.files.length).toBeLessThanOrEqual(5)
        seen.push(...page.body.files.map((f: { name: string }) => f.name))
        pageToken = page.body.next_page_token
      } while (pageToken)
      expect(seen.sort()).toEqual([...names].sort())
    }
  })

  it('refuses a cursor this server never wrote, whatever it holds (a NUL was a 500 on PostgreSQL)', async () => {
    const token = await t.signUp()
    const forged = [
      { r: 1, v: 'a\u0000', i: 'Vx', o: 'name:asc' },
      { r: 1, v: 'a', i: 'V\u0000', o: 'name:asc' },
      { r: 1, v: 'a', i: 'no such id', o: 'name:asc' },
      { r: 1, v: 'yesterday', i: 'Vx', o: 'modified_time:desc' },
      { r: 1, v: 1.5, i: 'Vx', o: 'size:asc' },
    ]
    const orders: Record<string, [string, string]> = { 'name:asc': ['name', 'asc'], 'modified_time:desc': ['modified_time', 'desc'], 'size:asc': ['size', 'asc'] }
    for (const cursor of forged) {
      const [orderBy, direction] = orders[cursor.o] as [string, string]
      const page = await t.call('GET', '/drive/v1/files', { token, query: { parent_id: '', page_token: Buffer.from(JSON.stringify(cursor)).toString('base64url'), order_by: orderBy, direction } })
      expect(page.status, JSON.stringify(cursor)).toBe(400)
      expect(page.body.error).toBe('invalid_argument')
    }
  })

  it('renames with an error on a clash and refuses bad names', async () => {
    const token = await t.signUp()
    const a = await folder(token, 'a')
    await folder(token, 'b')
    const clash = await t.call('PATCH', `/drive/v1/files/${a.id}`, { token, body: { name: 'b' } })
    expect(clash.status).toBe(409)
    expect(clash.body).toMatchObject({ error: 'file_duplicated_name', error_code: 6 })
    expect(clash.body.details[0].domain).toBe('drive')
    for (const [name, reason] of [['', 'file_name_empty'], ['x/y', 'file_name_invalid'], ['é'.repeat(128), 'file_name_too_long']]) {
      const bad = await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#folder', name } })
      expect(bad.status, name).toBe(400)
      expect(bad.body.error).toBe(reason)
    }
    const renamed = await t.call('PATCH', `/drive/v1/files/${a.id}`, { token, body: { name: 'c', starred: true } })
    expect(renamed.body).toMatchObject({ name: 'c', starred: true, revision: '2' })
  })

  it('keeps users apart and asks for a bearer', async () => {
    const alice = await t.signUp()
    const bob = await t.signUp()
    const secret = await folder(alice, 'secret')
    expect((await t.call('GET', `/drive/v1/files/${secret.id}`, { token: bob })).body.error).toBe('file_not_found')
    expect((await t.call('GET', '/drive/v1/files')).status).toBe(401)
  })

  it('reports the quota from the membership', async () => {
    const token = await t.signUp()
    const free = await t.call('GET', '/drive/v1/about', { token })
    expect(free.body.quota).toMatchObject({ kind: 'drive#quota', limit: String(10 * 1024 ** 3), usage: '0', usage_in_trash: '0' })
    expect((await t.call('GET', '/drive/v1/privilege/vip', { token })).body.data).toMatchObject({ status: 'invalid', type: 'novip', expire: '', vip_item: [] })
    const freeQuantities = (await t.call('GET', '/vip/v1/quantity/list', { token, query: { type: 'transfer' } })).body
    expect(freeQuantities).toMatchObject({ transfer_type: 'transfer', base: { vip_status: 'invalid', expire_time: '', download: { total_assets: -1, assets: -1 } } })
    expect(freeQuantities.base.offline.total_assets).toBe(Number((await t.call('GET', '/drive/v1/about', { token })).body.quotas.offline_daily.limit))
    await t.makeVip(token)
    const about = (await t.call('GET', '/drive/v1/about', { token })).body
    expect(about.quota.limit).toBe(String(10 * 1024 ** 4))
    const privilege = (await t.call('GET', '/drive/v1/privilege/vip', { token })).body
    expect(privilege.data).toMatchObject({ status: 'ok', type: 'vip', expire: about.expires_at, vip_item: [{ type: 'vip', expire: about.expires_at, surplus_day: expect.any(Number) }] })
    // Every membership call tells the same story.
    expect((await t.call('GET', '/vip/v1/vip/info', { token })).body).toEqual(privilege)
    const quantities = (await t.call('GET', '/vip/v1/quantity/list', { token, query: { type: 'transfer' } })).body
    expect(quantities.base).toMatchObject({ vip_status: 'ok', expire_time: about.expires_at, offline: { total_assets: Number(about.quotas.offline_daily.limit), assets: Number(about.quotas.offline_daily.limit) } })
    expect((await t.call('GET', '/vip/v1/quantity/list', { token, query: { type: '<x>' } })).status).toBe(400)
  })
})

describe('plans from the configuration', () => {
  it('gives a member of an operator-defined plan that plan: storage, offline limits, level and name everywhere', async () => {
    const plans = { free: { storage: '1MiB', offline_tasks_per_day: 3 }, platinum: { level: 2, storage: '3TiB', offline_tasks_per_day: 77, offline_running_tasks: 7, transcoded_playback: true, plays_per_day: -1, download_bytes_per_day: '1GiB' } }
    const app = await startDriveTestApp({ PLANS: JSON.stringify(plans), SESSION_CACHE_SECONDS: '0' })
    try {
      const token = await app.signUp()
      const free = (await app.call('GET', '/drive/v1/about', { token })).body
      expect(free.quota).toMatchObject({ limit: String(1024 ** 2), play_times_limit: '5' })
      expect(free.quotas.offline_daily.limit).toBe('3')

      const [code] = await createActivationCodes(app.server.identity, { plan: 'platinum', days: 30, count: 1 })
      const redeemed = await app.call('POST', '/vip/v1/order/activation-code', { token, body: { activation_code: code, data: {} } })
      expect(redeemed.body).toMatchObject({ add_days: 30, data: { status: 'ok', type: 'platinum' } })

      const about = (await app.call('GET', '/drive/v1/about', { token })).body
      expect(about.quota).toMatchObject({ limit: String(3 * 1024 ** 4), play_times_limit: '-1' })
      expect(about.quotas).toMatchObject({ offline_daily: { limit: '77' }, offline_running: { limit: '7' } })
      expect((await app.call('GET', '/drive/v1/privilege/vip', { token })).body.data).toMatchObject({ status: 'ok', type: 'platinum', vip_item: [{ type: 'platinum' }] })
      expect((await app.call('GET', '/v1/user/me', { token })).body.vip_info[0]).toMatchObject({ is_vip: 1, vas_type: 'platinum', level: 2 })
      expect((await app.call('GET', '/vip/v1/quantity/list', { token, query: { type: 'transfer' } })).body.base).toMatchObject({ offline: { total_assets: 77 }, download_daily: { total_assets: 1024 ** 3 } })
      // A code for a plan the operator did not configure is refused.
      await expect(createActivationCodes(app.server.identity, { plan: 'gold', days: 1, count: 1 })).rejects.toMatchObject({ description: expect.stringContaining('plans: vip, platinum') })
    } finally {
      await app.close()
    }
  })
})

describe('browsers on another allowed origin', () => {
  it('may PATCH and DELETE after a preflight, and read the tus headers', async () => {
    const reply = await t.call('OPTIONS', '/drive/v1/files/abc', { headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type' } })
    expect(reply.status).toBe(204)
    expect(String(reply.headers['access-control-allow-methods'])).toContain('PATCH')
    expect(String(reply.headers['access-control-allow-methods'])).toContain('DELETE')
    const get = await t.call('GET', '/drive/v1/about', { headers: { origin: 'http://127.0.0.1:3000' } })
    expect(String(get.headers['access-control-expose-headers'])).toContain('upload-offset')
  })
})
