import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { buildServer, loadConfig } from '@cumulus/server'
import { createUserByOperator, runHousekeeping, restoreUser } from '@cumulus/identity'
import type { Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DriveDatabase } from '../src/db/schema.js'
import { collectGarbageBlobs } from '../src/features/blobs/collect-garbage-blobs.js'
import { type DriveTestApp, startDriveTestApp, testBackend } from './drive-test-app.js'
import { S3_TEST_CREDENTIALS, type S3TestServer, startS3TestServer } from './s3-test-server.js'
import { createUpload, download, patch, pathOf, stagingFiles, storedBlobs, uploadFile } from './upload-kit.js'

/*
 * Issue 10: erasing an account deleted its identity rows only; its files, blobs, uploads, tasks,
 * events and usage stayed for ever, and its download links kept working while it was frozen.
 * Identity now records account events in the transaction of the change, and the drive reacts.
 */

const PASSWORD = 'a long enough passphrase'
const DRIVE_TABLES = ['drive_files', 'drive_uploads', 'drive_tasks', 'drive_events', 'drive_usage', 'drive_account_holds', 'drive_plays', 'drive_play_days', 'drive_playback', 'drive_traffic_days', 'drive_shares'] as const

/** Rows of the user in every drive table, by table. */
export async function driveRowsOf(db: Kysely<DriveDatabase>, userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of DRIVE_TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    counts[table] = Number(row.n)
  }
  return counts
}

const NOTHING = Object.fromEntries(DRIVE_TABLES.map((t) => [t, 0]))

function accountHelpers(app: () => DriveTestApp) {
  /** A password account (the deletion needs a sudo token), signed in. */
  async function passwordAccount(): Promise<{ id: string; email: string; token: string }> {
    const email = `erase-${randomBytes(4).toString('hex')}@example.com`
    const user = await createUserByOperator(app().server.identity, { email, password: PASSWORD })
    const signIn = await app().call('POST', '/v1/auth/signin', { body: { username: email, password: PASSWORD, client_id: 'cumulus-web' } })
    expect(signIn.status).toBe(200)
    return { id: user.id, email, token: signIn.body.access_token }
  }

  /** DELETE /v1/user/me as the web app does it: a sudo token from the password, then the call. */
  async function deleteAccount(token: string): Promise<void> {
    const sudo = await app().call('POST', '/v1/user/sudo', { token, body: { password: PASSWORD } })
    expect(sudo.status).toBe(200)
    const deleted = await app().call('DELETE', `/v1/user/me?sudo_token=${encodeURIComponent(sudo.body.sudo_token)}`, { token })
    expect(deleted.status).toBe(200)
  }
  return { passwordAccount, deleteAccount }
}

describe(`erasing an account reaches the drive, on ${testBackend()}`, () => {
  let t: DriveTestApp
  let db: Kysely<DriveDatabase>
  beforeEach(async () => {
    // No grace: an account asked to be deleted is due at once, so housekeeping erases it.
    t = await startDriveTestApp({ ACCOUNT_DELETION_GRACE_DAYS: '0' })
    db = t.server.drive.db
  })
  afterEach(() => t.close())

  const { passwordAccount, deleteAccount } = accountHelpers(() => t)

  it('stops the links of a frozen account before the deletion reply returns, and brings them back on restore', async () => {
    const ann = await passwordAccount()
    const content = randomBytes(3000)
    const file = await uploadFile(t, ann.token, 'holiday.bin', content)
    expect((await download(t, file)).status).toBe(200)

    await deleteAccount(ann.token)
    const refused = await download(t, file)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ error: 'file_link_invalid', details: expect.anything() })

    await restoreUser(t.server.identity, ann.email)
    const again = await download(t, file)
    expect(again.status).toBe(200)
    expect(Buffer.compare(again.raw, content)).toBe(0)
  })

  it('knows every drive table that holds rows of an account', async () => {
    const tables = await t.server.drive.db.introspection.getTables()
    // Drive's own tables (identity's share the database); on PostgreSQL other test schemas' copies are the same names.
    const withUser = [...new Set(tables.filter((table) => table.name.startsWith('drive_') && table.columns.some((c) => c.name === 'user_id')).map((table) => table.name))].sort()
    expect(withUser).toEqual([...DRIVE_TABLES].sort())
  })

  it('finishes the purge after a crash between the identity commit and the drive purge', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url))
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
    const build = spawnSync(process.execPath, [tsc, '--build', 'packages/server'], { cwd: root, encoding: 'utf8' })
    expect(build.status, `the build the crash runs failed:\n${build.stdout}${build.stderr}`).toBe(0)

    const ann = await passwordAccount()
    const bob = await t.signUp()
    const shared = randomBytes(4000)
    const bobsCopy = await uploadFile(t, bob, 'shared.bin', shared)
    await uploadFile(t, ann.token, 'shared.bin', shared)
    await uploadFile(t, ann.token, 'own.bin', randomBytes(6000))
    await deleteAccount(ann.token)
    await t.server.close()

    // The real server process erases the due account and is killed before delivering anything.
    const child = spawn(process.execPath, [fileURLToPath(new URL('./erase-crash.mjs', import.meta.url))], { cwd: root, env: { ...t.environment.env, PATH: process.env['PATH'] ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (err += chunk))
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, s) => resolve(s)))
    expect(signal, err).toBe('SIGKILL')
    expect(JSON.parse(out)).toEqual({ erasedUserIds: [ann.id] })

    // What the crash left: identity has forgotten the account, the drive has not yet.
    const config = loadConfig(t.environment.env)
    const stopped = await buildServer(config, { web: false, housekeeping: false, deliverEvents: false })
    expect(await stopped.identity.users.findById(ann.id)).toBeNull()
    expect((await driveRowsOf(stopped.drive.db, ann.id)).drive_files).toBe(2)
    await stopped.close()

    // A restart delivers the waiting account.erased.
    const restarted = await buildServer(config, { web: false, housekeeping: false })
    try {
      await restarted.events.deliverPending()
      expect(await driveRowsOf(restarted.drive.db, ann.id)).toEqual(NOTHING)
      await collectGarbageBlobs(restarted.drive, 0)
      expect(storedBlobs(t.environment.dataDir)).toEqual([bobsCopy.hash])
    } finally {
      await restarted.close()
    }
  }, 120_000)

  it('erases idempotently: a second delivery of account.erased finds nothing to do', async () => {
    const ann = await passwordAccount()
    await uploadFile(t, ann.token, 'a.bin', randomBytes(100))
    await deleteAccount(ann.token)
    await runHousekeeping(t.server.identity)
    const { eraseDriveAccount } = await import('../src/features/accounts/account-events.js')
    expect(await eraseDriveAccount(t.server.drive, ann.id)).toEqual({ files: 0, uploads: 0, blobsReleased: 0 })
    expect(await driveRowsOf(db, ann.id)).toEqual(NOTHING)
  })
})

for (const storage of ['local disk', 's3'] as const) {
  describe(`an erased account's content on ${storage}, on ${testBackend()}`, () => {
    let s3: S3TestServer | undefined
    let t: DriveTestApp
    let db: Kysely<DriveDatabase>
    beforeAll(async () => {
      if (storage === 's3') s3 = await startS3TestServer()
    })
    afterAll(() => s3?.stop())
    beforeEach(async () => {
      const { accessKeyId, secretAccessKey } = S3_TEST_CREDENTIALS
      const storageUrl: Record<string, string> = s3 ? { STORAGE_URL: `s3://${accessKeyId}:${secretAccessKey}@${s3.bucket}/erasure-${randomBytes(4).toString('hex')}?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1&forcePathStyle=true` } : {}
      t = await startDriveTestApp({ ACCOUNT_DELETION_GRACE_DAYS: '0', ...storageUrl })
      db = t.server.drive.db
    })
    afterEach(() => t.close())
    const { passwordAccount, deleteAccount } = accountHelpers(() => t)

  it(`deletes every row of an erased account and its blobs from ${storage}; content another account shares survives`, async () => {
    const ann = await passwordAccount()
    const bob = await t.signUp()
    const shared = randomBytes(5000)
    const own = randomBytes(7000)
    const bobsCopy = await uploadFile(t, bob, 'shared.bin', shared)

    const folder = await t.call('POST', '/drive/v1/files', { token: ann.token, body: { kind: 'drive#folder', name: 'Photos', parent_id: '' } })
    expect(folder.status).toBe(200)
    await uploadFile(t, ann.token, 'shared.bin', shared, folder.body.file.id)
    const mine = await uploadFile(t, ann.token, 'own.bin', own)
    const annsOnly = [mine.hash as string]
    expect((await t.call('POST', '/drive/v1/files:batchCopy', { token: ann.token, body: { ids: [mine.id], to: { parent_id: folder.body.file.id } } })).status).toBe(200)
    const trashed = await uploadFile(t, ann.token, 'old.bin', randomBytes(1000))
    annsOnly.push(trashed.hash)
    for (const gcid of annsOnly) expect(await t.server.drive.blobs.stat(gcid)).not.toBeNull()
    expect((await t.call('POST', '/drive/v1/files:batchTrash', { token: ann.token, body: { ids: [trashed.id] } })).status).toBe(200)
    // An upload left half way: a reservation, a pending file, an upload task and staged bytes.
    const half = await createUpload(t, ann.token, { name: 'half.bin', size: 4000 })
    expect((await patch(t, ann.token, half.body.resumable.params.endpoint, 0, randomBytes(1500))).status).toBe(204)
    expect(stagingFiles(t.environment.dataDir).length).toBeGreaterThan(0)
    // A video played and stopped half way (a .mp4 that ffprobe cannot read is still a video by its name).
    const film = await uploadFile(t, ann.token, 'film.mp4', randomBytes(2000))
    const filmDetail = await t.call('GET', `/drive/v1/files/${film.id}`, { token: ann.token })
    expect((await t.call('GET', pathOf(filmDetail.body.medias[0].link.url), { headers: { range: 'bytes=0-9' } })).status).toBe(206)
    expect((await t.call('GET', pathOf(filmDetail.body.web_content_link), { headers: { range: 'bytes=0-9' } })).status).toBe(206)
    expect((await t.call('PUT', `/drive/v1/files/${film.id}/playback`, { token: ann.token, body: { position_seconds: 12 } })).status).toBe(200)
    expect(await driveRowsOf(db, ann.id)).toMatchObject({ drive_uploads: 1, drive_usage: 1, drive_plays: 1, drive_play_days: 1, drive_playback: 1, drive_traffic_days: 1 })

    await deleteAccount(ann.token)
    const { erasedUserIds } = await runHousekeeping(t.server.identity)
    expect(erasedUserIds).toEqual([ann.id])

    expect(await driveRowsOf(db, ann.id)).toEqual(NOTHING)
    expect(stagingFiles(t.environment.dataDir)).toEqual([])
    expect(await t.server.identity.users.findById(ann.id)).toBeNull()
    // The blob collector deletes what no file uses any more once its grace has passed.
    await collectGarbageBlobs(t.server.drive, 0)
    const blobs = await db.selectFrom('drive_blobs').select(['gcid', 'ref_count']).execute()
    expect(blobs).toEqual([{ gcid: bobsCopy.hash, ref_count: 1 }])
    expect(await t.server.drive.blobs.stat(bobsCopy.hash)).toMatchObject({ sizeBytes: shared.length })
    for (const gcid of annsOnly) expect(await t.server.drive.blobs.stat(gcid)).toBeNull()
    if (storage === 'local disk') expect(storedBlobs(t.environment.dataDir)).toEqual([bobsCopy.hash])
    const bobs = await download(t, (await t.call('GET', `/drive/v1/files/${bobsCopy.id}`, { token: bob })).body)
    expect(Buffer.compare(bobs.raw, shared)).toBe(0)
  })

  })
}
