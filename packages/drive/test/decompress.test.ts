import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DriveErrors, GenericErrors } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'
import { uploadFile } from './upload-kit.js'

// POST /decompress/v1/list (issue 14) over archives made here by 7zz and Info-ZIP (decision 028),
// uploaded like any file. Every archive status answers HTTP 200; bad requests get the catalogue.

describe('decompress: list', () => {
  let t: DriveTestApp
  let dir: string
  const made: Record<string, Buffer> = {}
  const make = (name: string, cmd: string, args: string[], cwd: string) => {
    execFileSync(cmd, args, { cwd, stdio: 'ignore', env: { ...process.env, LC_ALL: 'C' } })
    made[name] = readFileSync(join(dir, name))
  }

  beforeAll(async () => {
    t = await startDriveTestApp()
    dir = mkdtempSync(join(tmpdir(), 'cumulus-decompress-'))
    const src = join(dir, 'src')
    mkdirSync(join(src, 'photos', '2024'), { recursive: true })
    writeFileSync(join(src, 'readme.txt'), 'hello\n')
    writeFileSync(join(src, 'photos', '2024', 'a.jpg'), Buffer.alloc(1000, 1))
    writeFileSync(join(src, 'photos', 'b.png'), Buffer.alloc(300, 2))
    make('plain.zip', '7zz', ['a', '-tzip', join(dir, 'plain.zip'), '.'], src)
    make('locked.7z', '7zz', ['a', '-t7z', '-pOpenSesame', '-mhe=on', join(dir, 'locked.7z'), '.'], src)
    make('open.7z', '7zz', ['a', '-t7z', join(dir, 'open.7z'), '.'], src)
    // Names encrypted, but nothing with contents to encrypt: no entry is marked encrypted.
    const hollow = join(dir, 'hollow')
    mkdirSync(join(hollow, 'secret-plans'), { recursive: true })
    writeFileSync(join(hollow, 'secret-plans', 'merger-with-acme.txt'), '')
    make('hollow.7z', '7zz', ['a', '-t7z', '-pOpenSesame', '-mhe=on', join(dir, 'hollow.7z'), '.'], hollow)
    // GBK names without the UTF-8 flag, as a Chinese Windows makes them.
    const gbk = join(dir, 'gbk')
    mkdirSync(gbk)
    execFileSync('python3', ['-c', "import os; os.makedirs(bytes.fromhex('d5d5c6ac')); open(os.path.join(bytes.fromhex('d5d5c6ac'), bytes.fromhex('b1b1bea92e6a7067')), 'w').write('x')"], { cwd: gbk })
    make('gbk.zip', 'zip', ['-r', join(dir, 'gbk.zip'), '.'], gbk)
  })
  afterAll(async () => {
    await t?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  const list = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => t.call('POST', '/decompress/v1/list', { token, body, headers })

  it('lists an archive one level at a time, with paths, kinds and the sizes folders hold', async () => {
    const token = await t.signUp()
    const file = await uploadFile(t, token, 'holiday.zip', made['plain.zip']!)
    // The file object names the archive page as its app; other files have none.
    const viewed = (await t.call('GET', `/drive/v1/files/${file.id}`, { token })).body
    expect(viewed.file_category).toBe('ARCHIVE')
    expect(viewed.apps).toEqual([{ id: 'decompress', name: 'Decompress', link: expect.stringMatching(new RegExp(`/decompress/${file.id}$`)) }])
    const text = await uploadFile(t, token, 'notes.txt', Buffer.from('hi'))
    expect((await t.call('GET', `/drive/v1/files/${text.id}`, { token })).body.apps).toBeUndefined()
    const top = await list(token, { gcid: file.hash, file_id: file.id, path: '' })
    expect(top.status).toBe(200)
    expect(top.body).toMatchObject({ status: 'OK', task_id: '', current_path: '', title: 'holiday.zip', file_size: String(made['plain.zip']!.length), gcid: file.hash })
    expect(top.body.files.map((f: any) => [f.kind, f.filename, f.filesize, f.path])).toEqual([
      ['drive#folder', 'photos', '1300', 'photos'],
      ['drive#file', 'readme.txt', '6', 'readme.txt'],
    ])
    const photos = await list(token, { file_id: file.id, path: 'photos' })
    expect(photos.body.files.map((f: any) => [f.kind, f.filename, f.path, f.mime_type])).toEqual([
      ['drive#folder', '2024', 'photos/2024', ''],
      ['drive#file', 'b.png', 'photos/b.png', 'image/png'],
    ])
    // A path that climbs or names nothing in the archive is a bad request, not a listing.
    for (const path of ['nowhere', '../..', 'readme.txt']) {
      const bad = await list(token, { file_id: file.id, path })
      expect([path, bad.status, bad.body.error]).toEqual([path, 400, GenericErrors.invalid_argument.reason])
    }
  })

  it('asks for the password of an archive with encrypted names, and says when it is wrong', async () => {
    const token = await t.signUp()
    const file = await uploadFile(t, token, 'secret.7z', made['locked.7z']!)
    const empty = await list(token, { file_id: file.id })
    expect([empty.status, empty.body.status, empty.body.files]).toEqual([200, 'PASS_WORD_EMPTY', []])
    const wrong = await list(token, { file_id: file.id, password: 'guess' })
    expect([wrong.status, wrong.body.status]).toEqual([200, 'PASS_WORD_ERROR'])
    const right = await list(token, { file_id: file.id, password: 'OpenSesame' })
    expect(right.body.status).toBe('OK')
    expect(right.body.files.map((f: any) => f.filename)).toEqual(['photos', 'readme.txt'])
  })

  it('reads an archive once while its folders are browsed (the tree is kept), and never answers another password from it', async () => {
    const token = await t.signUp()
    const file = await uploadFile(t, token, 'kept.7z', made['locked.7z']!)
    expect((await list(token, { file_id: file.id, password: 'OpenSesame' })).body.status).toBe('OK')
    // A node without 7zz, holding the same content: the kept tree (by content) still answers its
    // folders; another password is not answered from it and needs the tool.
    const toolless = await startDriveTestApp({ SEVEN_ZIP_PATH: '/nonexistent/7zz' })
    try {
      const owner = await toolless.signUp()
      const copy = await uploadFile(toolless, owner, 'copy.7z', made['locked.7z']!)
      const call = (body: Record<string, unknown>) => toolless.call('POST', '/decompress/v1/list', { token: owner, body })
      const inner = await call({ file_id: copy.id, password: 'OpenSesame', path: 'photos' })
      expect(inner.body.files.map((f: any) => f.filename)).toEqual(['2024', 'b.png'])
      expect((await call({ file_id: copy.id, password: 'guess' })).body.status).toBe('NOT_SUPPORTED')
    } finally {
      await toolless.close()
    }
  })

  it('keeps an archive read without a password once, and answers every password from it', async () => {
    const token = await t.signUp()
    const file = await uploadFile(t, token, 'open.7z', made['open.7z']!)
    expect((await list(token, { file_id: file.id })).body.status).toBe('OK')
    // Kept per password, every new password read the archive again and kept another copy of its
    // tree: a node without 7zz answers them all from the one kept listing.
    const toolless = await startDriveTestApp({ SEVEN_ZIP_PATH: '/nonexistent/7zz' })
    try {
      const owner = await toolless.signUp()
      const copy = await uploadFile(toolless, owner, 'copy.7z', made['open.7z']!)
      for (const password of ['p1', 'p2', '']) {
        const level = await toolless.call('POST', '/decompress/v1/list', { token: owner, body: { file_id: copy.id, password, path: 'photos/2024' } })
        expect([level.body.status, level.body.files.map((f: any) => f.path)]).toEqual(['OK', ['photos/2024/a.jpg']])
      }
    } finally {
      await toolless.close()
    }
  })

  it('never answers another password, or none, from a listing whose names needed the password, even with nothing in it encrypted', async () => {
    const token = await t.signUp()
    const file = await uploadFile(t, token, 'hollow.7z', made['hollow.7z']!)
    const listed = await list(token, { file_id: file.id, password: 'OpenSesame', path: 'secret-plans' })
    expect([listed.body.status, listed.body.files.map((f: any) => f.filename)]).toEqual(['OK', ['merger-with-acme.txt']])
    expect((await list(token, { file_id: file.id, password: '' })).body.status).toBe('PASS_WORD_EMPTY')
    const toolless = await startDriveTestApp({ SEVEN_ZIP_PATH: '/nonexistent/7zz' })
    try {
      const other = await toolless.signUp()
      const copy = await uploadFile(toolless, other, 'copy.7z', made['hollow.7z']!)
      for (const password of ['', 'wrong']) {
        const level = await toolless.call('POST', '/decompress/v1/list', { token: other, body: { file_id: copy.id, password } })
        expect([level.body.status, level.body.files]).toEqual(['NOT_SUPPORTED', []])
      }
    } finally {
      await toolless.close()
    }
  })

  it('a parallel password-guessing script gets at most two readings at once; the rest are refused, not queued', async () => {
    const token = await t.signUp()
    const file = await uploadFile(t, token, 'guess-me.7z', made['locked.7z']!)
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => list(token, { file_id: file.id, password: `guess-${i}` })))
    const answered = guesses.filter((g) => g.status === 200)
    const refused = guesses.filter((g) => g.status === 429)
    expect(answered.length + refused.length).toBe(12)
    // Twelve arrive together and each reading takes a 7zz process: two run, the others are refused.
    expect(answered.length).toBeGreaterThanOrEqual(1)
    expect(refused.length).toBeGreaterThanOrEqual(1)
    for (const reply of answered) expect(reply.body.status).toBe('PASS_WORD_ERROR')
    for (const reply of refused) {
      expect(reply.body.error).toBe(GenericErrors.resource_exhausted.reason)
      expect(reply.headers['retry-after']).toBe('1')
    }
    // The limit is per account: another user reads at once, and the guesser again once done.
    const other = await t.signUp()
    const theirs = await uploadFile(t, other, 'theirs.7z', made['locked.7z']!)
    expect((await list(other, { file_id: theirs.id, password: 'OpenSesame' })).body.status).toBe('OK')
    expect((await list(token, { file_id: file.id, password: 'OpenSesame' })).body.status).toBe('OK')
  })

  it('reads GBK names of a zip from a Chinese Windows', async () => {
    const token = await t.signUp()
    const file = await uploadFile(t, token, 'photos.zip', made['gbk.zip']!)
    const top = await list(token, { file_id: file.id }, { 'accept-language': 'zh-CN,zh;q=0.9' })
    expect(top.body.files.map((f: any) => f.filename)).toEqual(['照片'])
    const inner = await list(token, { file_id: file.id, path: '照片' }, { 'accept-language': 'zh-CN' })
    expect(inner.body.files.map((f: any) => f.filename)).toEqual(['北京.jpg'])
  })

  it('says NOT_SUPPORTED for a file that is no archive', async () => {
    const token = await t.signUp()
    const file = await uploadFile(t, token, 'fake.zip', Buffer.from('not a zip at all'))
    const reply = await list(token, { file_id: file.id })
    expect([reply.status, reply.body.status, reply.body.files]).toEqual([200, 'NOT_SUPPORTED', []])
  })

  it("never lists another user's archive, a trashed one, or without a session", async () => {
    const owner = await t.signUp()
    const other = await t.signUp()
    const file = await uploadFile(t, owner, 'mine.zip', made['plain.zip']!)
    const theirs = await list(other, { file_id: file.id })
    expect([theirs.status, theirs.body.error]).toEqual([404, DriveErrors.file_not_found.reason])
    const mismatched = await list(owner, { file_id: file.id, gcid: '0'.repeat(40) })
    expect(mismatched.status).toBe(404)
    expect((await t.call('POST', '/decompress/v1/list', { body: { file_id: file.id } })).status).toBe(401)
    expect((await t.call('POST', '/drive/v1/files:batchTrash', { token: owner, body: { ids: [file.id] } })).status).toBe(200)
    expect((await list(owner, { file_id: file.id })).status).toBe(404)
    expect((await list(owner, {})).status).toBe(400)
  })
})
