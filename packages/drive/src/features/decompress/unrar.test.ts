import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { extractWithUnrar, listWithUnrar } from './unrar.js'

const fixtures = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'rar', 'rar4')
const solidEncrypted = join(fixtures, 'encrypted.rar')
const namesEncrypted = join(fixtures, 'encrypted-headers.rar')

describe('unrar (RAR 4 with encryption, in a child process)', () => {
  let out: string
  beforeEach(async () => {
    out = await mkdtemp(join(tmpdir(), 'cumulus-unrar-test-'))
  })
  afterEach(async () => {
    await rm(out, { recursive: true, force: true })
  })

  it('tells a missing, a wrong and a right password apart when the names are encrypted', async () => {
    expect(await listWithUnrar(namesEncrypted, '')).toMatchObject({ ok: false, failure: 'password_missing' })
    expect(await listWithUnrar(namesEncrypted, 'wrong')).toMatchObject({ ok: false, failure: 'password_wrong' })
    const listed = await listWithUnrar(namesEncrypted, 'password')
    expect(listed).toMatchObject({ ok: true, headersEncrypted: true })
    expect(listed.ok && listed.entries.map((e) => [e.name, e.sizeBytes, e.encrypted])).toEqual(['a', 'b', 'c', 'd'].map((c) => [`${c}.txt`, 18, true]))
  })

  it('unpacks only the chosen entries, and a wrong password unpacks nothing usable', async () => {
    expect(await extractWithUnrar(solidEncrypted, { password: 'wrong', target: out, names: null, maxFileBytes: 18 })).toMatchObject({ failure: 'password_wrong' })
    await rm(out, { recursive: true, force: true })
    expect(await extractWithUnrar(solidEncrypted, { password: 'password', target: out, names: ['c.txt'], maxFileBytes: 18 })).toBeNull()
    expect(await readdir(out)).toEqual(['c.txt'])
    expect(await readFile(join(out, 'c.txt'), 'utf8')).toBe('This is from c.txt')
  })

  it('is stopped by the kernel when a file grows past what it may (a bomb declares less than it holds)', async () => {
    const failed = await extractWithUnrar(namesEncrypted, { password: 'password', target: out, names: null, maxFileBytes: 5 })
    expect(failed).toMatchObject({ failure: 'overrun' })
    for (const name of await readdir(out)) expect((await stat(join(out, name))).size).toBeLessThanOrEqual(5)
  })

  it('fails, never succeeds unchecked, when a chosen name is not in the archive', async () => {
    expect(await extractWithUnrar(solidEncrypted, { password: 'password', target: out, names: ['a.txt', 'nowhere.txt'], maxFileBytes: 18 })).toMatchObject({ failure: 'damaged' })
    expect(await extractWithUnrar(namesEncrypted, { password: 'password', target: out, names: ['A.TXT'], maxFileBytes: 18 })).toMatchObject({ failure: 'damaged' })
  })

  it('stops at the bound of entries a listing may hold', async () => {
    const listed = await listWithUnrar(namesEncrypted, 'password', { maxEntries: 2 })
    expect(listed.ok && listed.entries.length).toBe(3)
  })

  it('calls anything that is not a RAR damaged, and never a password problem', async () => {
    const junk = join(out, 'junk.rar')
    await writeFile(junk, Buffer.concat([Buffer.from('Rar!\x1a\x07\x00', 'latin1'), Buffer.alloc(300, 0x41)]))
    expect(await listWithUnrar(junk, '')).toMatchObject({ ok: false, failure: 'damaged' })
    expect(await extractWithUnrar(junk, { password: '', target: join(out, 'x'), names: null, maxFileBytes: 100 })).toMatchObject({ failure: 'damaged' })
  })
})
