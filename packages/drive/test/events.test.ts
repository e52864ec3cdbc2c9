import { GenericErrors } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordEvents } from '../src/domain/events.js'
import { makeFolder, storeFile, userIdOf } from './batch-fixtures.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'

let t: DriveTestApp
beforeAll(async () => {
  t = await startDriveTestApp()
})
afterAll(async () => {
  await t?.close()
})

interface WireEvent {
  type: string
  type_name: string
  file_id: string
  file_name: string
  created_time: string
}

async function allEvents(token: string, limit: string): Promise<WireEvent[]> {
  const events: WireEvent[] = []
  let pageToken = ''
  do {
    const page = await t.call('GET', '/drive/v1/events', { token, query: { limit, page_token: pageToken } })
    expect(page.status).toBe(200)
    expect(page.body.events.length).toBeLessThanOrEqual(Number(limit))
    events.push(...page.body.events)
    pageToken = page.body.next_page_token
  } while (pageToken)
  return events
}

describe('events', () => {
  it('records what the user did, one event per item acted on', async () => {
    const token = await t.signUp()
    const userId = await userIdOf(t, token)
    const folder = await makeFolder(t, token, 'box')
    const file = await storeFile(t, userId, { name: 'a.txt', content: 'a' })
    const post = (action: string, ids: string[], to?: string) => t.call('POST', `/drive/v1/files:${action}`, { token, body: { ids, ...(to !== undefined ? { to: { parent_id: to } } : {}) } })
    await t.call('PATCH', `/drive/v1/files/${folder.id}`, { token, body: { name: 'crate' } })
    await post('batchMove', [file.id], folder.id)
    await post('batchCopy', [file.id])
    await post('batchTrash', [folder.id])
    await post('batchUntrash', [folder.id])
    await post('batchDelete', [folder.id])

    const events = await allEvents(token, '100')
    // Same-millisecond events may come in either order; the kinds and items are what matter.
    expect(events.map((e) => `${e.type}:${e.file_name}`).sort()).toEqual(
      ['TYPE_CREATE:box', 'TYPE_RENAME:crate', 'TYPE_MOVE:a.txt', 'TYPE_COPY:a.txt', 'TYPE_TRASH:crate', 'TYPE_RESTORE:crate', 'TYPE_DELETE:crate'].sort(),
    )
    expect(events.find((e) => e.type === 'TYPE_TRASH')).toMatchObject({ type_name: 'Trash', file_id: folder.id })
    const times = events.map((e) => Date.parse(e.created_time))
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })

  it('pages newest first with a cursor, ties broken by id, nothing skipped or repeated', async () => {
    const token = await t.signUp()
    const userId = await userIdOf(t, token)
    const db = t.server.drive.db
    const baseMs = Date.UTC(2030, 0, 1)
    // Three moments; the middle one holds five events, so pages end inside a millisecond.
    await recordEvents(db, baseMs, userId, 'TYPE_CREATE', [{ id: 'Vold', name: 'old' }])
    await recordEvents(db, baseMs + 1000, userId, 'TYPE_UPLOAD', Array.from({ length: 5 }, (_, i) => ({ id: `Vmid${i}`, name: `mid${i}` })))
    await recordEvents(db, baseMs + 2000, userId, 'TYPE_DELETE', [{ id: 'Vnew', name: 'new' }])

    const whole = await allEvents(token, '500')
    expect(whole.map((e) => e.file_name)[0]).toBe('new')
    expect(whole.map((e) => e.file_name).at(-1)).toBe('old')
    expect(whole[0]).toEqual({ type: 'TYPE_DELETE', type_name: 'Delete', file_id: 'Vnew', file_name: 'new', created_time: '2030-01-01T00:00:02.000+00:00' })
    for (const limit of ['1', '2', '3']) expect(await allEvents(token, limit)).toEqual(whole)

    // Nobody else sees them.
    expect((await t.call('GET', '/drive/v1/events', { token: await t.signUp() })).body).toEqual({ events: [], next_page_token: '' })
  })

  it('refuses bad paging input and clamps a large limit', async () => {
    const token = await t.signUp()
    for (const query of <Record<string, string>[]>[{ page_token: 'garbage' }, { page_token: Buffer.from('{"f":"tasks:offline","t":1,"i":"x"}').toString('base64url') }, { limit: '0' }, { limit: '-1' }, { limit: '1.5' }]) {
      const reply = await t.call('GET', '/drive/v1/events', { token, query })
      expect(reply.status, JSON.stringify(query)).toBe(400)
      expect(reply.body.error).toBe(GenericErrors.invalid_argument.reason)
    }
    expect((await t.call('GET', '/drive/v1/events', { token, query: { limit: '100000', page_token: '' } })).status).toBe(200)
    expect((await t.call('GET', '/drive/v1/events')).status).toBe(401)
  })
})
