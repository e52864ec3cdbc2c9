import { FOLDER_KIND } from '@cumulus/protocol'
import type { Transaction } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DriveDatabase } from '../src/db/schema.js'
import { insertItem, liveFolder } from '../src/domain/index.js'
import { type DriveTestApp, startDriveTestApp, testBackend } from './drive-test-app.js'

// Issue 18: a create must not wait behind a lock another create holds for a round trip. SQLite
// has one writer at a time and no round trips, so this is about PostgreSQL's row locks; on SQLite
// the held transaction below would hold the only connection.
describe.skipIf(testBackend() !== 'postgres')('creates in one folder while another is in flight (PostgreSQL)', () => {
  let t: DriveTestApp
  beforeAll(async () => {
    t = await startDriveTestApp()
  })
  afterAll(async () => {
    await t?.close()
  })

  async function account() {
    const token = await t.signUp()
    const me = await t.call('GET', '/v1/user/me', { token })
    const parent = await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#folder', name: 'Parent', parent_id: '' } })
    expect(parent.status).toBe(200)
    return { token, userId: me.body.sub as string, parentId: parent.body.file.id as string }
  }

  /** Another create, inside a transaction that stays open until `release`. */
  function createInFlight(userId: string, parentId: string, name: string) {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let ready!: () => void
    const inserted = new Promise<void>((resolve) => (ready = resolve))
    const done = t.server.drive.db.transaction().execute(async (trx: Transaction<DriveDatabase>) => {
      const folder = await liveFolder(trx, userId, parentId, { forInsert: true })
      await insertItem(trx, { userId, parentId: folder, name, kind: FOLDER_KIND, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', nowMs: Date.now() })
      ready()
      await released
    })
    return { inserted, release, done }
  }

  /** Resolves once a session of this test's database waits for a lock, or `settled` settles first. */
  async function blockedOrSettled(settled: Promise<unknown>): Promise<'blocked' | 'settled'> {
    let done = false
    void settled.finally(() => (done = true))
    const { sql } = await import('kysely')
    for (;;) {
      if (done) return 'settled'
      const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(t.server.drive.db)
      if (Number(rows[0]?.n) > 0) return 'blocked'
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
    return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms (blocked by the open transaction)`)), ms))])
  }

  it('a create of another name goes through while the first is still uncommitted', async () => {
    const { token, userId, parentId } = await account()
    const first = createInFlight(userId, parentId, 'first')
    await first.inserted
    try {
      const second = await within(t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#folder', name: 'second', parent_id: parentId } }), 5_000, 'the second create')
      expect(second.status).toBe(200)
      expect(second.body.file.name).toBe('second')
    } finally {
      first.release()
      await first.done
    }
  })

  it('a create of the same name waits for the first to commit, then takes the next suffix', async () => {
    const { token, userId, parentId } = await account()
    const first = createInFlight(userId, parentId, 'same')
    await first.inserted
    const second = t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#folder', name: 'same', parent_id: parentId } })
    // It meets the uncommitted name in the unique index and waits there.
    expect(await blockedOrSettled(second)).toBe('blocked')
    first.release()
    await first.done
    const reply = await second
    expect(reply.status).toBe(200)
    expect(reply.body.file.name).toBe('same(1)')
  })

  it('trashing the folder waits for a create in flight inside it, and takes the new item along', async () => {
    const { token, userId, parentId } = await account()
    const child = createInFlight(userId, parentId, 'child')
    await child.inserted
    const trash = t.call('POST', '/drive/v1/files:batchTrash', { token, body: { ids: [parentId] } })
    // The create holds the folder's row share-locked: the trash waits instead of missing the child.
    expect(await blockedOrSettled(trash)).toBe('blocked')
    child.release()
    await child.done
    expect((await trash).status).toBe(200)
    const rows = await t.server.drive.db.selectFrom('drive_files').select(['name', 'trashed']).where('parent_id', '=', parentId).execute()
    expect(rows).toEqual([{ name: 'child', trashed: 1 }])
  })
})
