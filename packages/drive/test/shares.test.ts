import { setTimeout as sleep } from 'node:timers/promises'
import { randomBytes, randomInt } from 'node:crypto'
import fc from 'fast-check'
import sharp from 'sharp'
import { DriveErrors, GenericErrors, SHARE_STATUSES, SHARE_TEXTS } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASS_CODE_GUESSES, guessAddressKey } from '../src/features/shares/access.js'
import { SHARE_MAX_DEPTH, itemInShare, newShareCache } from '../src/domain/shares.js'
import { RESTORE_QUEUE, runRestoreJob } from '../src/features/shares/restore.js'
import { insertItem } from '../src/domain/items.js'
import { recordTask } from '../src/domain/tasks.js'
import { SHARE_TOMBSTONE_MS, forgetOldShares } from '../src/features/shares/owner.js'
import { eraseDriveAccount } from '../src/features/accounts/account-events.js'
import { holdAccount, releaseAccount } from '../src/domain/index.js'
import { adjustUsage } from '../src/domain/usage.js'
import { makeFolder, namesIn, refCount, storeFile, usageOfToken, userIdOf } from './batch-fixtures.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'

let t: DriveTestApp
beforeAll(async () => {
  t = await startDriveTestApp({ BATCH_INLINE_MAX_ITEMS: '6' })
})
afterAll(async () => {
  await t?.close()
})

/** A visitor's request: no bearer, from `ip` (each test its own addresses: the guess budget is per address). */
async function visit(path: string, query: Record<string, string>, options: { ip?: string; language?: string } = {}) {
  const reply = await t.server.app.inject({ method: 'GET', url: path, query, remoteAddress: options.ip ?? randomIp(), headers: options.language ? { 'accept-language': options.language } : {} })
  return { status: reply.statusCode, body: reply.json() as any, headers: reply.headers }
}

function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`
}

async function share(token: string, body: Record<string, unknown>) {
  const reply = await t.call('POST', '/drive/v1/share', { token, body })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body as { share_id: string; share_url: string; pass_code: string; share_text: string; share_list: any[] }
}

/** An owner with: album/ { inner/ { deep.txt }, top.txt }, loose.txt */
async function anOwner() {
  const token = await t.signUp()
  const userId = await userIdOf(t, token)
  const album = await makeFolder(t, token, 'album')
  const inner = await makeFolder(t, token, 'inner', album.id)
  const deep = await storeFile(t, userId, { name: 'deep.txt', parentId: inner.id, content: `deep ${randomBytes(8).toString('hex')}` })
  const top = await storeFile(t, userId, { name: 'top.txt', parentId: album.id, content: `top ${randomBytes(8).toString('hex')}` })
  const loose = await storeFile(t, userId, { name: 'loose.txt', content: `loose ${randomBytes(8).toString('hex')}` })
  return { token, userId, album, inner, deep, top, loose }
}

async function download(url: string, headers: Record<string, string> = {}) {
  const reply = await t.server.app.inject({ method: 'GET', url: url.replace('http://127.0.0.1:3000', ''), headers })
  return { status: reply.statusCode, body: reply.body, headers: reply.headers, json: () => reply.json() as any }
}

async function shareRow(id: string) {
  return t.server.drive.db.selectFrom('drive_shares').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

describe('a public share', () => {
  it('opens without an account: lists, browses, gives links bound to the share, and counts views and downloads', async () => {
    const o = await anOwner()
    const createdReply = await t.call('POST', '/drive/v1/share', { token: o.token, body: { file_ids: [o.album.id, o.loose.id], share_to: 'publiclink', expiration_days: 7 } })
    expect(createdReply.headers['cache-control']).toBe('no-store')
    const created = createdReply.body as Awaited<ReturnType<typeof share>>
    expect(created.pass_code).toBe('')
    expect(created.share_url).toBe(`http://127.0.0.1:3000/s/${created.share_id}`)
    expect(created.share_text).toContain(created.share_url)
    expect(created.share_list[0]).toMatchObject({ share_id: created.share_id, title: 'album and 1 more', file_num: '2', expiration_days: '7', share_status: 'OK', pass_code_option: 'NOT_REQUIRED' })

    const info = await visit('/drive/v1/share', { share_id: created.share_id })
    expect(info.status).toBe(200)
    expect(info.headers['cache-control']).toBe('private, no-store')
    expect(info.body).toMatchObject({ share_status: 'OK', share_status_text: '', title: 'album and 1 more', file_num: '2', pass_code_token: '', restore_count_left: '-1' })
    expect(info.body.user_info.user_id).toBe(o.userId)
    expect(Date.parse(info.body.expiration_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000)
    // Folders first, then by name; nothing of it is writable.
    expect(info.body.files.map((f: any) => f.name)).toEqual(['album', 'loose.txt'])
    expect(info.body.files.every((f: any) => f.writable === false)).toBe(true)
    // Nothing of where the owner keeps them, nor the content's hash.
    expect(info.body.files.map((f: any) => [f.parent_id, f.hash])).toEqual([['', ''], ['', '']])

    const inside = await visit('/drive/v1/share/detail', { share_id: created.share_id, parent_id: o.album.id })
    expect(inside.body.files.map((f: any) => f.name)).toEqual(['inner', 'top.txt'])
    const deeper = await visit('/drive/v1/share/detail', { share_id: created.share_id, parent_id: o.inner.id })
    expect(deeper.body.files.map((f: any) => f.name)).toEqual(['deep.txt'])

    const fileInfo = await visit('/drive/v1/share/file_info', { share_id: created.share_id, file_id: o.deep.id })
    expect(fileInfo.body.share_status).toBe('OK')
    const link: string = fileInfo.body.file_info.web_content_link
    expect(link).toContain(`/drive/v1/share/content/${created.share_id}/${o.deep.id}/`)
    const got = await download(link)
    expect(got.status).toBe(200)
    expect(got.body).toMatch(/^deep /)
    // Served as the owner's downloads are: sandboxed, never sniffed, as an attachment named after the file.
    expect(got.headers['content-security-policy']).toContain('sandbox')
    expect(got.headers['x-content-type-options']).toBe('nosniff')
    expect(got.headers['content-disposition']).toContain('deep.txt')
    // A browser checks again before reusing it: a cancelled share stops serving from caches too.
    expect(got.headers['cache-control']).toBe('private, no-cache')
    // A probe of the first byte is no download.
    expect((await download(link, { range: 'bytes=0-0' })).status).toBe(206)
    // A later range of the same download is not another download.
    expect((await download(link, { range: 'bytes=2-' })).status).toBe(206)
    // Nor is a preview or a play: shown inline, from the first byte or whole.
    expect((await download(`${link}&disposition=inline`, { range: 'bytes=0-' })).status).toBe(206)
    expect((await download(`${link}&disposition=inline`)).status).toBe(200)
    // The share's link is not the owner's: it does not open the file's own content route.
    expect((await download(link.replace(`/share/content/${created.share_id}/`, '/content/'))).status).toBe(403)

    const row = await shareRow(created.share_id)
    expect(Number(row.view_count)).toBe(1)
    expect(Number(row.download_count)).toBe(1)
    // Visitors spend the share's own traffic, never the owner's.
    const traffic = await t.server.drive.db.selectFrom('drive_traffic_days').select(['user_id', 'bytes']).where('user_id', 'in', [o.userId, `${o.userId}:shares`]).execute()
    expect(traffic.map((r) => r.user_id)).toEqual([`${o.userId}:shares`])
    const list = await t.call('GET', '/drive/v1/share/list', { token: o.token })
    expect(list.headers['cache-control']).toBe('no-store')
    expect(list.body.data.map((s: any) => s.share_id)).toContain(created.share_id)
    expect(list.body.data.find((s: any) => s.share_id === created.share_id)).toMatchObject({ view_count: '1', download_count: '1', restore_count: '0' })
  })

  it('gives thumbnails through the share’s own links, which stop with the share', async () => {
    const o = await anOwner()
    const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png().toBuffer()
    const picture = await storeFile(t, o.userId, { name: 'red.png', content: png })
    const created = await share(o.token, { file_ids: [picture.id] })
    const [file] = (await visit('/drive/v1/share', { share_id: created.share_id })).body.files
    expect(file.thumbnail_link).toContain(`/drive/v1/share/thumbnails/${created.share_id}/${picture.id}?`)
    const shown = await t.server.app.inject({ method: 'GET', url: file.thumbnail_link.replace('http://127.0.0.1:3000', '') })
    expect(shown.statusCode).toBe(200)
    expect(shown.headers['content-type']).toBe('image/webp')
    expect(shown.headers['cache-control']).toBe('private, no-cache')
    // The share's link does not open the owner's thumbnail route, and dies with the share.
    const query = file.thumbnail_link.slice(file.thumbnail_link.indexOf('?'))
    expect((await t.server.app.inject({ method: 'GET', url: `/drive/v1/thumbnails/${picture.id}${query}` })).statusCode).toBe(403)
    await t.call('POST', '/drive/v1/share:batchDelete', { token: o.token, body: { ids: [created.share_id] } })
    expect((await t.server.app.inject({ method: 'GET', url: file.thumbnail_link.replace('http://127.0.0.1:3000', '') })).statusCode).toBe(403)
  })

  it('refuses items outside the share, even the owner’s own', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.album.id] })
    // Always HTTP 200 (drive.md): a status, in the visitor's language, and nothing of the item.
    const outside = await visit('/drive/v1/share/file_info', { share_id: created.share_id, file_id: o.loose.id }, { language: 'ko' })
    expect(outside.status).toBe(200)
    expect(outside.body).toEqual({ share_status: 'NOT_FOUND', share_status_text: SHARE_TEXTS.ko.itemNotFound, file_info: null })
    const stranger = await visit('/drive/v1/share/detail', { share_id: created.share_id, parent_id: 'Vnothing' })
    expect(stranger.body).toMatchObject({ share_status: 'NOT_FOUND', share_status_text: SHARE_TEXTS['en-US'].itemNotFound, files: [] })
    // An item moved out of the shared folder leaves the share.
    await t.call('PATCH', `/drive/v1/files/${o.top.id}`, { token: o.token, body: { name: 'top.txt' } })
    const moved = await t.call('POST', '/drive/v1/files:batchMove', { token: o.token, body: { ids: [o.top.id], to: { parent_id: '' } } })
    expect(moved.status).toBe(200)
    expect((await visit('/drive/v1/share/file_info', { share_id: created.share_id, file_id: o.top.id })).body.share_status).toBe('NOT_FOUND')
  })

  it('pages a folder in name order with cursors', async () => {
    const o = await anOwner()
    for (let i = 0; i < 7; i++) await storeFile(t, o.userId, { name: `n${i}.txt`, parentId: o.inner.id, content: `n${i} ${randomBytes(4).toString('hex')}` })
    const created = await share(o.token, { file_ids: [o.inner.id] })
    const names: string[] = []
    let pageToken = ''
    for (let pages = 0; pages < 10; pages++) {
      const page = await visit('/drive/v1/share/detail', { share_id: created.share_id, parent_id: o.inner.id, limit: '3', ...(pageToken ? { page_token: pageToken } : {}) })
      names.push(...page.body.files.map((f: any) => f.name))
      pageToken = page.body.next_page_token
      if (!pageToken) break
    }
    expect(names).toEqual(['deep.txt', 'n0.txt', 'n1.txt', 'n2.txt', 'n3.txt', 'n4.txt', 'n5.txt', 'n6.txt'])
    expect((await visit('/drive/v1/share/detail', { share_id: created.share_id, parent_id: o.inner.id, page_token: 'garbage' })).status).toBe(400)
    // A cursor this server never wrote (a NUL PostgreSQL cannot hold, an id that is no id) is refused, not passed on.
    for (const forged of [{ f: 'share', r: 1, k: 'a\u0000', i: 'Vx' }, { f: 'share', r: 1, k: 'a', i: 'x\u0000' }, { f: 'share', r: 1, k: 'a', i: 'a b' }]) {
      const token = Buffer.from(JSON.stringify(forged)).toString('base64url')
      expect((await visit('/drive/v1/share/detail', { share_id: created.share_id, parent_id: o.inner.id, page_token: token })).status).toBe(400)
    }
  })
})

describe('pass codes', () => {
  it('asks for the code, refuses a wrong one, and opens with the right one and its token', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.loose.id], share_to: 'encryptedlink', pass_code_option: 'REQUIRED' })
    expect(created.pass_code).toMatch(/^[a-z0-9]{6}$/)
    expect(created.share_text).toContain(created.pass_code)
    const ip = randomIp()
    const empty = await visit('/drive/v1/share', { share_id: created.share_id }, { ip })
    expect(empty.body).toMatchObject({ share_status: 'PASS_CODE_EMPTY', files: [], title: '' })
    const wrong = await visit('/drive/v1/share', { share_id: created.share_id, pass_code: created.pass_code === 'zzzzzz' ? 'yyyyyy' : 'zzzzzz' }, { ip, language: 'zh-CN' })
    expect(wrong.body).toMatchObject({ share_status: 'PASS_CODE_ERROR', share_status_text: SHARE_TEXTS['zh-CN'].status.PASS_CODE_ERROR, files: [] })
    const right = await visit('/drive/v1/share', { share_id: created.share_id, pass_code: created.pass_code }, { ip })
    expect(right.body.share_status).toBe('OK')
    expect(right.body.files.map((f: any) => f.name)).toEqual(['loose.txt'])
    const token: string = right.body.pass_code_token
    expect(token).not.toBe('')
    // The token opens the share from then on, from anywhere; it opens no other share.
    expect((await visit('/drive/v1/share/file_info', { share_id: created.share_id, file_id: o.loose.id, pass_code_token: token })).body.share_status).toBe('OK')
    const other = await share(o.token, { file_ids: [o.album.id], custom_pass_code: created.pass_code })
    expect(other.pass_code).toBe(created.pass_code)
    expect((await visit('/drive/v1/share', { share_id: other.share_id, pass_code_token: token })).body.share_status).toBe('PASS_CODE_EMPTY')
    // A forged or altered token is no token.
    const [exp, sig] = token.split('.')
    expect((await visit('/drive/v1/share', { share_id: created.share_id, pass_code_token: `${Number(exp) + 1}.${sig}` })).body.share_status).toBe('PASS_CODE_EMPTY')
  })

  it('takes the owner’s own code, and refuses a code that is not 4-16 letters or digits', async () => {
    const o = await anOwner()
    const custom = await share(o.token, { file_ids: [o.loose.id], custom_pass_code: 'Open2024' })
    expect(custom.pass_code).toBe('Open2024')
    expect(custom.share_list[0].share_to).toBe('encryptedlink')
    for (const bad of ['abc', 'a'.repeat(17), 'with space', 'ünï1', '12;4']) {
      const reply = await t.call('POST', '/drive/v1/share', { token: o.token, body: { file_ids: [o.loose.id], custom_pass_code: bad } })
      expect(reply.status, bad).toBe(400)
      expect(reply.body.error).toBe('share_pass_code_invalid')
    }
  })

  it('compares no more than one address’s budget for a share, however many guesses arrive at once', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.loose.id], pass_code_option: 'REQUIRED' })
    const ip = randomIp()
    const wrong = 'zzzzzz' === created.pass_code ? 'yyyyyy' : 'zzzzzz'
    const replies = await Promise.all(Array.from({ length: 40 }, () => visit('/drive/v1/share', { share_id: created.share_id, pass_code: wrong }, { ip })))
    const throttled = replies.filter((r) => r.body.share_status_text === SHARE_TEXTS['en-US'].tooManyGuesses)
    expect(replies.every((r) => r.status === 200 && r.body.share_status === 'PASS_CODE_ERROR')).toBe(true)
    expect(replies.length - throttled.length).toBe(PASS_CODE_GUESSES.perShareAddress)
    // Past the budget even the right code is not compared from this address…
    expect((await visit('/drive/v1/share', { share_id: created.share_id, pass_code: created.pass_code }, { ip })).body.share_status).toBe('PASS_CODE_ERROR')
    // …while another address still opens the share.
    expect((await visit('/drive/v1/share', { share_id: created.share_id, pass_code: created.pass_code })).body.share_status).toBe('OK')
  })

  it('holds one address to its budget over many shares, counting an IPv6 /64 as one address', async () => {
    const o = await anOwner()
    const shares = await Promise.all([0, 1, 2, 3].map(() => share(o.token, { file_ids: [o.loose.id], pass_code_option: 'REQUIRED' })))
    const prefix = `2001:db8:${randomInt(65536).toString(16)}:${randomInt(65536).toString(16)}`
    // Each share within its own budget for the address (10 each): only the address's budget (30) holds them back.
    const guesses = shares.flatMap((s) => Array.from({ length: PASS_CODE_GUESSES.perShareAddress }, (_, i) => ({ id: s.share_id, ip: `${prefix}::${(i + 1).toString(16)}`, code: s.pass_code === 'zzzzzz' ? 'yyyyyy' : 'zzzzzz' })))
    const replies = await Promise.all(guesses.map((g) => visit('/drive/v1/share', { share_id: g.id, pass_code: g.code }, { ip: g.ip })))
    const compared = replies.filter((r) => r.body.share_status_text === SHARE_TEXTS['en-US'].status.PASS_CODE_ERROR)
    expect(compared).toHaveLength(PASS_CODE_GUESSES.perAddress)
    expect(guessAddressKey(`${prefix}::1`)).toBe(guessAddressKey(`${prefix}:0:0:0:ffff`))
    expect(guessAddressKey('::ffff:192.0.2.7')).toBe('192.0.2.7')
  })

  it('holds a share’s budget against guesses spread over many addresses', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.loose.id], pass_code_option: 'REQUIRED' })
    const wrong = created.pass_code === 'zzzzzz' ? 'yyyyyy' : 'zzzzzz'
    const replies = await Promise.all(Array.from({ length: PASS_CODE_GUESSES.perShare + 30 }, () => visit('/drive/v1/share', { share_id: created.share_id, pass_code: wrong })))
    const compared = replies.filter((r) => r.body.share_status_text === SHARE_TEXTS['en-US'].status.PASS_CODE_ERROR)
    expect(compared).toHaveLength(PASS_CODE_GUESSES.perShare)
    // The right code from a fresh address is held back too, until the window passes.
    const late = await visit('/drive/v1/share', { share_id: created.share_id, pass_code: created.pass_code })
    expect(late.body).toMatchObject({ share_status: 'PASS_CODE_ERROR', share_status_text: SHARE_TEXTS['en-US'].tooManyGuesses })
  })

  it('does not count right codes against the budget', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.loose.id], pass_code_option: 'REQUIRED' })
    const ip = randomIp()
    for (let i = 0; i < PASS_CODE_GUESSES.perShareAddress + 5; i++) {
      expect((await visit('/drive/v1/share', { share_id: created.share_id, pass_code: created.pass_code }, { ip })).body.share_status).toBe('OK')
    }
  })
})

describe('a share dies with its content and its owner', () => {
  it('reads EXPIRED after its expiry, and its links stop', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.loose.id], expiration_days: '1' })
    const link = (await visit('/drive/v1/share/file_info', { share_id: created.share_id, file_id: o.loose.id })).body.file_info.web_content_link
    await t.server.drive.db.updateTable('drive_shares').set({ expires_at: Date.now() - 1 }).where('id', '=', created.share_id).execute()
    expect((await visit('/drive/v1/share', { share_id: created.share_id })).body).toMatchObject({ share_status: 'EXPIRED', share_status_text: SHARE_TEXTS['en-US'].status.EXPIRED, files: [] })
    expect((await download(link)).status).toBe(403)
    const listed = (await t.call('GET', '/drive/v1/share/list', { token: o.token })).body.data.find((s: any) => s.share_id === created.share_id)
    expect(listed).toMatchObject({ share_status: 'EXPIRED', expiration_left_seconds: '0' })
  })

  it('reads DELETED once cancelled, at once for links already given; a stranger cannot cancel it', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.loose.id] })
    const link = (await visit('/drive/v1/share/file_info', { share_id: created.share_id, file_id: o.loose.id })).body.file_info.web_content_link
    const stranger = await t.signUp()
    expect((await t.call('POST', '/drive/v1/share:batchDelete', { token: stranger, body: { ids: [created.share_id] } })).status).toBe(200)
    expect((await visit('/drive/v1/share', { share_id: created.share_id })).body.share_status).toBe('OK')
    expect((await t.call('POST', '/drive/v1/share:batchDelete', { token: o.token, body: { ids: [created.share_id, 'Vunknown'] } })).body).toEqual({})
    expect((await visit('/drive/v1/share', { share_id: created.share_id })).body.share_status).toBe('DELETED')
    expect((await download(link)).status).toBe(403)
    expect((await t.call('GET', '/drive/v1/share/list', { token: o.token })).body.data.map((s: any) => s.share_id)).not.toContain(created.share_id)
  })

  it('loses trashed items (back when restored from the trash), and reads DELETED when nothing is left', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.album.id, o.loose.id] })
    expect((await t.call('POST', '/drive/v1/files:batchTrash', { token: o.token, body: { ids: [o.top.id] } })).status).toBe(200)
    expect((await visit('/drive/v1/share/detail', { share_id: created.share_id, parent_id: o.album.id })).body.files.map((f: any) => f.name)).toEqual(['inner'])
    expect((await visit('/drive/v1/share/file_info', { share_id: created.share_id, file_id: o.top.id })).body.share_status).toBe('NOT_FOUND')
    await t.call('POST', '/drive/v1/files:batchTrash', { token: o.token, body: { ids: [o.album.id] } })
    expect((await visit('/drive/v1/share', { share_id: created.share_id })).body).toMatchObject({ share_status: 'OK', file_num: '1' })
    await t.call('POST', '/drive/v1/files:batchDelete', { token: o.token, body: { ids: [o.loose.id] } })
    expect((await visit('/drive/v1/share', { share_id: created.share_id })).body.share_status).toBe('DELETED')
    await t.call('POST', '/drive/v1/files:batchUntrash', { token: o.token, body: { ids: [o.album.id] } })
    expect((await visit('/drive/v1/share', { share_id: created.share_id })).body).toMatchObject({ share_status: 'OK', file_num: '1' })
  })

  it('is forgotten by housekeeping a month after it was cancelled or expired', async () => {
    const o = await anOwner()
    const cancelled = await share(o.token, { file_ids: [o.loose.id] })
    const expired = await share(o.token, { file_ids: [o.loose.id], expiration_days: 1 })
    const live = await share(o.token, { file_ids: [o.loose.id], expiration_days: 30 })
    const longAgo = Date.now() - SHARE_TOMBSTONE_MS - 1000
    await t.server.drive.db.updateTable('drive_shares').set({ deleted_at: longAgo }).where('id', '=', cancelled.share_id).execute()
    await t.server.drive.db.updateTable('drive_shares').set({ expires_at: longAgo }).where('id', '=', expired.share_id).execute()
    expect(await forgetOldShares(t.server.drive)).toBeGreaterThanOrEqual(2)
    expect((await visit('/drive/v1/share', { share_id: cancelled.share_id })).body.share_status).toBe('NOT_FOUND')
    expect((await visit('/drive/v1/share', { share_id: expired.share_id })).body.share_status).toBe('NOT_FOUND')
    expect((await visit('/drive/v1/share', { share_id: live.share_id })).body.share_status).toBe('OK')
    expect(await t.server.drive.db.selectFrom('drive_share_items').select('file_id').where('share_id', 'in', [cancelled.share_id, expired.share_id]).execute()).toEqual([])
  })

  it('is NOT_FOUND while its owner is frozen for deletion, and after the owner is erased', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.loose.id] })
    await holdAccount(t.server.drive, o.userId, Date.now())
    expect((await visit('/drive/v1/share', { share_id: created.share_id })).body.share_status).toBe('NOT_FOUND')
    await releaseAccount(t.server.drive, o.userId)
    expect((await visit('/drive/v1/share', { share_id: created.share_id })).body.share_status).toBe('OK')
    await eraseDriveAccount(t.server.drive, o.userId)
    expect((await visit('/drive/v1/share', { share_id: created.share_id })).body.share_status).toBe('NOT_FOUND')
    expect(await t.server.drive.db.selectFrom('drive_share_items').select('file_id').where('share_id', '=', created.share_id).execute()).toEqual([])
  })
})

describe('saving a share into one’s drive', () => {
  it('copies the share into "Pack From Shared", sharing the blobs and counting the quota', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.album.id, o.loose.id], pass_code_option: 'REQUIRED' })
    const opened = await visit('/drive/v1/share', { share_id: created.share_id, pass_code: created.pass_code })
    const saver = await t.signUp()
    const before = await usageOfToken(t, saver)
    const ownerBefore = await usageOfToken(t, o.token)
    const refsBefore = await refCount(t, o.deep.gcid as string)

    const withoutCode = await t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id } })
    expect(withoutCode.status).toBe(200)
    expect(withoutCode.body).toMatchObject({ share_status: 'PASS_CODE_EMPTY', restore_status: '' })

    const saved = await t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id, pass_code_token: opened.body.pass_code_token, file_ids: [], ancestor_ids: [], parent_id: '', specify_parent_id: false } })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect(saved.body).toMatchObject({ share_status: 'OK', restore_status: 'RESTORE_COMPLETE' })
    expect(await namesIn(t, saver, '')).toEqual(['Pack From Shared'])
    const pack = (await t.call('GET', '/drive/v1/files', { token: saver, query: { parent_id: '' } })).body.files[0]
    expect(saved.body.file_id).toBe(pack.id)
    expect(await namesIn(t, saver, pack.id)).toEqual(['album', 'loose.txt'])
    const album = (await t.call('GET', '/drive/v1/files', { token: saver, query: { parent_id: pack.id } })).body.files[0]
    expect(await namesIn(t, saver, album.id)).toEqual(['inner', 'top.txt'])

    const bytes = Number(o.deep.size) + Number(o.top.size) + Number(o.loose.size)
    expect(await usageOfToken(t, saver)).toEqual({ usage: before.usage + bytes, inTrash: 0 })
    expect(await usageOfToken(t, o.token)).toEqual(ownerBefore)
    expect(await refCount(t, o.deep.gcid as string)).toBe((refsBefore ?? 0) + 1)
    expect(Number((await shareRow(created.share_id)).restore_count)).toBe(1)
    const task = await t.call('GET', `/drive/v1/tasks/${saved.body.restore_task_id}`, { token: saver, query: {} })
    expect(task.body).toMatchObject({ type: 'restore', phase: 'PHASE_TYPE_COMPLETE', progress: 100 })

    // A second save goes into the same folder, the names suffixed.
    await t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id, pass_code_token: opened.body.pass_code_token } })
    expect(await namesIn(t, saver, pack.id)).toEqual(['album', 'album(1)', 'loose(1).txt', 'loose.txt'])
  })

  it('saves chosen items from inside the share into a folder of the caller’s choice, in the caller’s language', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.album.id] })
    const saver = await t.signUp()
    const target = await makeFolder(t, saver, 'mine')
    const chosen = await t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id, file_ids: [o.deep.id], ancestor_ids: [o.album.id, o.inner.id], parent_id: target.id, specify_parent_id: true } })
    expect(chosen.body).toMatchObject({ restore_status: 'RESTORE_COMPLETE', file_id: target.id })
    expect(await namesIn(t, saver, target.id)).toEqual(['deep.txt'])
    const zh = await t.call('POST', '/drive/v1/share/restore', { token: saver, headers: { 'accept-language': 'zh-CN' }, body: { share_id: created.share_id, file_ids: [o.top.id] } })
    expect(zh.status).toBe(200)
    expect((await namesIn(t, saver, '')).sort()).toEqual(['mine', SHARE_TEXTS['zh-CN'].packFolder].sort())
    // Something outside the share cannot be saved through it.
    const outside = await t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id, file_ids: [o.loose.id] } })
    expect(outside.status).toBe(404)
    expect(outside.body.error).toBe('file_not_found')
  })

  it('refuses one’s own share, a save that does not fit the quota, and a save without an account', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.loose.id] })
    const own = await t.call('POST', '/drive/v1/share/restore', { token: o.token, body: { share_id: created.share_id } })
    expect(own.status).toBe(400)
    expect(own.body).toMatchObject({ error: 'file_restore_own', error_code: DriveErrors.file_restore_own.code })

    const saver = await t.signUp()
    const saverId = await userIdOf(t, saver)
    const about = (await t.call('GET', '/drive/v1/about', { token: saver })).body
    await adjustUsage(t.server.drive.db, saverId, { usage: Number(about.quota.limit) - 1 })
    const full = await t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id } })
    expect(full.status).toBe(403)
    expect(full.body.error).toBe('file_space_not_enough')
    // Nothing was made: no folder, no count.
    expect(await namesIn(t, saver, '')).toEqual([])
    expect(Number((await shareRow(created.share_id)).restore_count)).toBe(0)

    const anonymous = await t.call('POST', '/drive/v1/share/restore', { body: { share_id: created.share_id } })
    expect(anonymous.status).toBe(401)
  })

  it('holds the quota against saves in parallel, and counts every view and save', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.loose.id] })
    const saver = await t.signUp()
    const saverId = await userIdOf(t, saver)
    const about = (await t.call('GET', '/drive/v1/about', { token: saver })).body
    // Room for one copy of loose.txt and not two.
    await adjustUsage(t.server.drive.db, saverId, { usage: Number(about.quota.limit) - Number(o.loose.size) - 1 })
    const replies = await Promise.all(Array.from({ length: 8 }, () => t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id } })))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1)
    expect(replies.filter((r) => r.status === 403 && r.body.error === 'file_space_not_enough')).toHaveLength(7)
    const pack = (await t.call('GET', '/drive/v1/files', { token: saver, query: { parent_id: '' } })).body.files
    expect(pack).toHaveLength(1)
    expect(await namesIn(t, saver, pack[0].id)).toEqual(['loose.txt'])
    await Promise.all(Array.from({ length: 25 }, () => visit('/drive/v1/share', { share_id: created.share_id })))
    const row = await shareRow(created.share_id)
    expect([Number(row.view_count), Number(row.restore_count)]).toEqual([25, 1])
  })

  it('saves a tree too large for one request as a job with a task, and keeps the share’s state when it runs', async () => {
    const o = await anOwner()
    for (let i = 0; i < 6; i++) await storeFile(t, o.userId, { name: `bulk${i}.txt`, parentId: o.inner.id, content: `bulk ${i} ${randomBytes(4).toString('hex')}` })
    const created = await share(o.token, { file_ids: [o.album.id] })
    const saver = await t.signUp()
    const started = await t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id } })
    expect(started.body).toMatchObject({ share_status: 'OK', restore_status: 'RESTORE_START' })
    const deadline = Date.now() + 15_000
    let task: any
    for (;;) {
      task = (await t.call('GET', `/drive/v1/tasks/${started.body.restore_task_id}`, { token: saver, query: {} })).body
      if (task.phase === 'PHASE_TYPE_COMPLETE' || task.phase === 'PHASE_TYPE_ERROR' || Date.now() > deadline) break
      await sleep(50)
    }
    expect(task).toMatchObject({ type: 'restore', phase: 'PHASE_TYPE_COMPLETE', progress: 100, file_id: started.body.file_id })
    const album = (await t.call('GET', '/drive/v1/files', { token: saver, query: { parent_id: started.body.file_id } })).body.files[0]
    const inner = (await t.call('GET', '/drive/v1/files', { token: saver, query: { parent_id: album.id } })).body.files[0]
    expect(await namesIn(t, saver, inner.id)).toHaveLength(7)

    // A save started just before the share is cancelled copies nothing.
    const again = await t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id } })
    await t.call('POST', '/drive/v1/share:batchDelete', { token: o.token, body: { ids: [created.share_id] } })
    for (;;) {
      task = (await t.call('GET', `/drive/v1/tasks/${again.body.restore_task_id}`, { token: saver, query: {} })).body
      if (task.phase === 'PHASE_TYPE_COMPLETE' || task.phase === 'PHASE_TYPE_ERROR' || Date.now() > deadline + 15_000) break
      await sleep(50)
    }
    // The job may have run before the cancel landed; either way the result is whole or nothing.
    const copies = await namesIn(t, saver, again.body.file_id)
    expect(task.phase === 'PHASE_TYPE_COMPLETE' ? copies.length === 2 : copies.length === 1 && task.message === 'file_not_found').toBe(true)
  })
})

describe('saves that outlive their request', () => {
  /** A save job's data as the request would enqueue it, with its PENDING task (the job is run by the test). */
  async function queuedSave(saver: string, shareId: string, ownerId: string, itemIds: string[]) {
    const userId = await userIdOf(t, saver)
    const folder = await makeFolder(t, saver, `into-${randomBytes(3).toString('hex')}`)
    const task = await recordTask(t.server.drive.db, { userId, type: 'restore', name: 'restore', phase: 'PHASE_TYPE_PENDING', progress: 0, params: {}, nowMs: Date.now() })
    return { folder, data: { taskId: task.id, userId, shareId, ownerId, itemIds, folderId: folder.id, membership: null } }
  }
  const taskOf = (id: string) => t.server.drive.db.selectFrom('drive_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  it('copies nothing that left the share, nor anything once the owner is frozen', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.album.id] })
    const saver = await t.signUp()
    // The owner moves `inner` out of the shared folder after the save was queued.
    const moved = await queuedSave(saver, created.share_id, o.userId, [o.inner.id, o.top.id])
    await t.call('POST', '/drive/v1/files:batchMove', { token: o.token, body: { ids: [o.inner.id], to: { parent_id: '' } } })
    await runRestoreJob(t.server.drive, moved.data)
    expect(await namesIn(t, saver, moved.folder.id)).toEqual(['top.txt'])
    expect((await taskOf(moved.data.taskId)).phase).toBe('PHASE_TYPE_COMPLETE')

    const frozen = await queuedSave(saver, created.share_id, o.userId, [o.top.id])
    await holdAccount(t.server.drive, o.userId, Date.now())
    await expect(runRestoreJob(t.server.drive, frozen.data)).rejects.toThrow()
    await releaseAccount(t.server.drive, o.userId)
    expect(await namesIn(t, saver, frozen.folder.id)).toEqual([])
    expect(await taskOf(frozen.data.taskId)).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: 'file_not_found' })
  })

  it('runs a save once however often its job is delivered', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.album.id] })
    const saver = await t.signUp()
    const before = await usageOfToken(t, saver)
    const queued = await queuedSave(saver, created.share_id, o.userId, [o.album.id])
    await Promise.all([runRestoreJob(t.server.drive, queued.data), runRestoreJob(t.server.drive, queued.data), runRestoreJob(t.server.drive, queued.data)])
    expect(await namesIn(t, saver, queued.folder.id)).toEqual(['album'])
    expect((await usageOfToken(t, saver)).usage).toBe(before.usage + Number(o.deep.size) + Number(o.top.size))
    expect(RESTORE_QUEUE).toBe('drive.share-restore')
  })

  it('copies an item chosen with a folder above it once, inside that folder', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.album.id] })
    const saver = await t.signUp()
    const target = await makeFolder(t, saver, 'here')
    const saved = await t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id, file_ids: [o.deep.id, o.album.id], parent_id: target.id, specify_parent_id: true } })
    expect(saved.body.restore_status).toBe('RESTORE_COMPLETE')
    expect(await namesIn(t, saver, target.id)).toEqual(['album'])
  })

  it('looks no deeper than SHARE_MAX_DEPTH levels under a shared folder, and climbs each folder once per request', async () => {
    const o = await anOwner()
    const deps = t.server.drive
    // A chain of folders deeper than the bound, made directly (the API would take a while).
    const chain: string[] = []
    await deps.db.transaction().execute(async (trx) => {
      let parent = o.album.id
      for (let i = 0; i < SHARE_MAX_DEPTH + 3; i++) {
        const folder = await insertItem(trx, { userId: o.userId, parentId: parent, name: `d${i}`, kind: 'drive#folder', size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', nowMs: Date.now() })
        chain.push(folder.id)
        parent = folder.id
      }
    })
    const created = await share(o.token, { file_ids: [o.album.id] })
    expect((await visit('/drive/v1/share/file_info', { share_id: created.share_id, file_id: chain[SHARE_MAX_DEPTH - 3] as string })).body.share_status).toBe('OK')
    expect((await visit('/drive/v1/share/file_info', { share_id: created.share_id, file_id: chain[chain.length - 1] as string })).body.share_status).toBe('NOT_FOUND')
    // Fifty items along one long chain: each folder is read once, not once per item.
    const ids = chain.slice(SHARE_MAX_DEPTH - 60, SHARE_MAX_DEPTH - 10)
    let queries = 0
    const counting = deps.db.withPlugin({ transformQuery: (args) => ((queries += 1), args.node), transformResult: async (args) => args.result })
    const cache = newShareCache()
    const row = await shareRow(created.share_id)
    for (const id of ids) expect(await itemInShare(counting, row, [o.album.id], id, cache)).toBeDefined()
    // The first item's climb (one read per level) plus one read of each later item.
    expect(queries).toBeLessThanOrEqual(1 + (SHARE_MAX_DEPTH - 60) + ids.length)
    const saver = await t.signUp()
    const saved = await t.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id, file_ids: ids } })
    expect(saved.body.restore_status, JSON.stringify(saved.body)).toMatch(/RESTORE_(COMPLETE|START)/)
  })
})

describe('hostile input', () => {
  it('answers anything a visitor sends with a status or an error in the contract’s shape, never a 5xx', async () => {
    const o = await anOwner()
    const created = await share(o.token, { file_ids: [o.album.id], pass_code_option: 'REQUIRED' })
    const nasty = fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('', '\u0000', '..', '%00', created.share_id, o.deep.id, o.album.id, 'x'.repeat(200), '9'.repeat(30), '-1', '[]'), fc.base64String({ maxLength: 80 }))
    const paths = fc.constantFrom('/drive/v1/share', '/drive/v1/share/detail', '/drive/v1/share/file_info')
    await fc.assert(
      fc.asyncProperty(paths, fc.dictionary(fc.constantFrom('share_id', 'pass_code', 'pass_code_token', 'page_token', 'parent_id', 'file_id', 'limit'), nasty), async (path, query) => {
        const reply = await t.server.app.inject({ method: 'GET', url: path, query, remoteAddress: randomIp() })
        expect(reply.statusCode).toBeLessThan(500)
        const body = reply.json() as any
        if (reply.statusCode === 200) expect(SHARE_STATUSES).toContain(body.share_status)
        else expect(body).toMatchObject({ error: expect.any(String), error_code: expect.any(Number) })
        // Nothing opens a share behind a code without the code.
        if (reply.statusCode === 200 && query.share_id === created.share_id) expect(body.share_status).not.toBe('OK')
      }),
      { numRuns: 150 },
    )
  })

  it('answers hostile create and restore bodies with 4xx in the contract’s shape and stores nothing', async () => {
    const o = await anOwner()
    const saver = await t.signUp()
    const before = await t.server.drive.db.selectFrom('drive_shares').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', o.userId).executeTakeFirstOrThrow()
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), fc.constantFrom('\u0000', '-2', '0', '3651', '1e3', 'REQUIRED', 'encryptedlink'))
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom('file_ids', 'share_to', 'pass_code_option', 'expiration_days', 'custom_pass_code', 'title', 'share_id', 'parent_id', 'specify_parent_id', 'pass_code_token'), value), async (body) => {
        for (const [token, path] of [[o.token, '/drive/v1/share'], [saver, '/drive/v1/share/restore']] as const) {
          const reply = await t.call('POST', path, { token, body })
          expect(reply.status, JSON.stringify({ path, body, reply: reply.body })).toBeLessThan(500)
          if (reply.status !== 200) expect(reply.body).toMatchObject({ error: expect.any(String), error_code: expect.any(Number) })
        }
      }),
      { numRuns: 120 },
    )
    const after = await t.server.drive.db.selectFrom('drive_shares').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', o.userId).executeTakeFirstOrThrow()
    // Random file_ids never name the owner's items, so no share was made.
    expect(Number(after.n)).toBe(Number(before.n))
    expect(await namesIn(t, saver, '')).toEqual([])
    void GenericErrors
  })
})

describe('the size of one save', () => {
  let small: DriveTestApp
  beforeAll(async () => {
    small = await startDriveTestApp({ SHARE_RESTORE_MAX_ITEMS: '3' })
  })
  afterAll(() => small?.close())

  it('refuses a save of more items than SHARE_RESTORE_MAX_ITEMS (folders count, though they cost no quota), and takes fewer', async () => {
    const owner = await small.signUp()
    const album = await makeFolder(small, owner, 'album')
    for (const name of ['a', 'b', 'c']) await makeFolder(small, owner, name, album.id)
    const created = (await small.call('POST', '/drive/v1/share', { token: owner, body: { file_ids: [album.id] } })).body
    const saver = await small.signUp()
    const whole = await small.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id } })
    expect(whole.status).toBe(400)
    expect(whole.body).toMatchObject({ error: 'share_restore_too_large', error_code: DriveErrors.share_restore_too_large.code })
    expect(await namesIn(small, saver, '')).toEqual([])
    const inner = (await small.call('GET', '/drive/v1/share/detail', { query: { share_id: created.share_id, parent_id: album.id } })).body.files.map((f: any) => f.id)
    const fewer = await small.call('POST', '/drive/v1/share/restore', { token: saver, body: { share_id: created.share_id, file_ids: inner } })
    expect(fewer.body.restore_status).toBe('RESTORE_COMPLETE')
  })
})
