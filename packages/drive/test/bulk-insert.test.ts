import { randomBytes } from 'node:crypto'
import { FOLDER_KIND } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertItem, insertItems, type NewItem } from '../src/domain/index.js'
import { type DriveTestApp, startDriveTestApp, testBackend } from './drive-test-app.js'

describe(`insertItems, the bulk path (issue 18) on ${testBackend()}`, () => {
  let t: DriveTestApp
  beforeAll(async () => {
    t = await startDriveTestApp()
  })
  afterAll(async () => {
    await t?.close()
  })

  const userId = () => `U${randomBytes(8).toString('hex')}`
  const item = (owner: string, name: string, kind: NewItem['kind'] = FOLDER_KIND): NewItem => ({ userId: owner, parentId: '', name, kind, size: 0, gcid: null, phase: 'PHASE_TYPE_COMPLETE', nowMs: Date.now() })
  const namesOf = async (owner: string) => (await t.server.drive.db.selectFrom('drive_files').select('name').where('user_id', '=', owner).where('trashed', '=', 0).execute()).map((r) => r.name).sort()

  it('lands 1,200 items in one folder with suffixes for the clashes, in input order', async () => {
    const owner = userId()
    await insertItem(t.server.drive.db, item(owner, 'existing'))
    const wanted = [...Array.from({ length: 1_197 }, (_, i) => `item ${i}`), 'dup', 'dup', 'existing']
    const rows = await insertItems(t.server.drive.db, wanted.map((name) => item(owner, name)))
    expect(rows.map((r) => r.name).slice(-3)).toEqual(['dup', 'dup(1)', 'existing(1)'])
    expect(rows.slice(0, 1_197).map((r) => r.name)).toEqual(wanted.slice(0, 1_197))
    const stored = await namesOf(owner)
    expect(stored).toHaveLength(1_201)
    expect(new Set(stored).size).toBe(1_201)
  })

  it('two bulk inserts of the same names at once both land, every name once', async () => {
    const owner = userId()
    const wanted = Array.from({ length: 300 }, (_, i) => `same ${i}`)
    const [a, b] = await Promise.all([0, 1].map(() => insertItems(t.server.drive.db, wanted.map((name) => item(owner, name)))))
    expect(a).toHaveLength(300)
    expect(b).toHaveLength(300)
    const stored = await namesOf(owner)
    expect(stored).toHaveLength(600)
    expect(new Set(stored).size).toBe(600)
    expect(stored.filter((n) => !n.endsWith('(1)'))).toEqual([...wanted].sort())
  })
})
