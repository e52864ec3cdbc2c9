import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ToolMissing } from '../../lib/tools.js'
import { type ArchiveEntry, listArchive, singleFileName, sniffFormat } from './archive-listing.js'

// Real archives, made here by Debian's 7zz, zip and tar (decision 028).
const tools = { sevenZipPath: '7zz', lsarPath: 'lsar' }
let dir: string
let src: string
const sh = (cmd: string, args: string[], cwd = src) => execFileSync(cmd, args, { cwd, stdio: 'ignore', env: { ...process.env, LC_ALL: 'C' } })
const archive = (name: string) => join(dir, name)
const files = (entries: ArchiveEntry[]) =>
  entries
    .filter((e) => !e.isDirectory)
    .map((e) => [e.name.replace(/^\.\//, ''), e.sizeBytes])
    .sort()

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cumulus-archives-'))
  src = join(dir, 'src')
  mkdirSync(join(src, 'docs', 'deep'), { recursive: true })
  writeFileSync(join(src, 'readme.txt'), 'hello\n')
  writeFileSync(join(src, 'docs', 'deep', 'data.bin'), Buffer.alloc(70_000, 7))
  symlinkSync('/etc/passwd', join(src, 'link'))
  sh('7zz', ['a', '-tzip', '-snl', archive('plain.zip'), '.'])
  sh('7zz', ['a', '-tzip', '-pSecret', '-mem=AES256', archive('aes.zip'), 'readme.txt', 'docs'])
  sh('7zz', ['a', '-t7z', '-pSecret', '-mhe=on', archive('headers.7z'), 'readme.txt', 'docs'])
  sh('7zz', ['a', '-t7z', '-ms=on', archive('solid.7z'), 'readme.txt', 'docs'])
  sh('tar', ['czf', archive('a.tar.gz'), 'readme.txt', 'docs'])
  sh('tar', ['cJf', archive('a.tar.xz'), 'readme.txt', 'docs'])
  sh('tar', ['cjf', archive('a.tar.bz2'), 'readme.txt', 'docs'])
  sh('tar', ['cf', archive('a.tar'), 'readme.txt', 'docs', 'link'])
  sh('gzip', ['-k', '-c', 'readme.txt'])
  execFileSync('sh', ['-c', `gzip -c readme.txt > ${archive('readme.txt.gz')}`], { cwd: src })
  // A zip made on a Chinese Windows: GBK names, no UTF-8 flag (Info-ZIP in the C locale keeps the bytes).
  const gbk = join(dir, 'gbk')
  mkdirSync(join(gbk, Buffer.from([0xd6, 0xd0, 0xce, 0xc4]).toString('latin1')), { recursive: true })
  const folder = Buffer.from([0xd6, 0xd0, 0xce, 0xc4]) // 中文
  const file = Buffer.from([0xce, 0xc4, 0xbc, 0xfe, 0x2e, 0x74, 0x78, 0x74]) // 文件.txt
  execFileSync('python3', ['-c', `import os; os.makedirs(bytes.fromhex('${folder.toString('hex')}'), exist_ok=True); open(os.path.join(bytes.fromhex('${folder.toString('hex')}'), bytes.fromhex('${file.toString('hex')}')), 'w').write('x')`], { cwd: gbk })
  rmSync(join(gbk, Buffer.from([0xd6, 0xd0, 0xce, 0xc4]).toString('latin1')), { recursive: true, force: true })
  sh('zip', ['-r', archive('gbk.zip'), '.'], gbk)
  // ZipCrypto zips whose one name 7zz reads otherwise than we do (a UTF-8-flagged name with an
  // invalid byte) or cannot be given to it at all (a NUL): made by Info-ZIP, then patched.
  sh('zip', ['-P', 'Secret', archive('plain-crypto.zip'), 'readme.txt'])
  for (const [name, byte] of [['odd-name.zip', 0xff], ['nul-name.zip', 0x00]] as const) {
    execFileSync('sh', ['-c', `cp readme.txt aXaa && zip -q -P Secret ${archive(name)} aXaa && rm aXaa`], { cwd: src })
    const bytes = readFileSync(archive(name))
    for (let at = bytes.indexOf('aXaa'); at >= 0; at = bytes.indexOf('aXaa', at + 1)) bytes[at + 1] = byte
    for (const [signature, flagAt] of [[0x04034b50, 6], [0x02014b50, 8]] as const) {
      for (let at = 0; at + 4 <= bytes.length; at++) if (bytes.readUInt32LE(at) === signature) bytes.writeUInt16LE(bytes.readUInt16LE(at + flagAt) | 0x800, at + flagAt)
    }
    writeFileSync(archive(name), bytes)
  }
  writeFileSync(archive('not-an-archive.zip'), 'just text')
  writeFileSync(archive('truncated.7z'), execFileSync('head', ['-c', '200', archive('solid.7z')]))
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

const expected = [
  ['docs/deep/data.bin', 70_000],
  ['readme.txt', 6],
]

describe('listArchive', () => {
  it.each(['plain.zip', 'solid.7z', 'a.tar.gz', 'a.tar.xz', 'a.tar.bz2'])('lists %s: paths, sizes and folders', async (name) => {
    const listed = await listArchive(tools, archive(name), '')
    expect(listed.status).toBe('OK')
    if (listed.status !== 'OK') return
    expect(files(listed.entries).filter(([path]) => path !== 'link')).toEqual(expected)
    expect(listed.entries.some((e) => e.isDirectory && e.name.replace(/^\.\//, '').replace(/\/$/, '') === 'docs')).toBe(true)
  })

  it('marks symlinks so they are never unpacked', async () => {
    const listed = await listArchive(tools, archive('a.tar'), '')
    expect(listed.status === 'OK' && listed.entries.find((e) => e.name === 'link')?.isLink).toBe(true)
  })

  it('a compressed single file is that one file, named after the archive, its size counted', async () => {
    const listed = await listArchive(tools, archive('readme.txt.gz'), '', { singleName: singleFileName('readme.txt.gz') })
    expect(listed.status).toBe('OK')
    expect(listed.status === 'OK' && listed.entries.map((e) => [e.name, e.sizeBytes])).toEqual([['readme.txt', 6]])
    expect(['a.gz', 'b.tar.GZ', 'c.bz2', 'd.xz', 'e.zst', 'plain'].map(singleFileName)).toEqual(['a', 'b.tar', 'c', 'd', 'e', 'plain.out'])
  })

  it('an AES zip asks for its password, refuses a wrong one and lists with the right one', async () => {
    expect((await listArchive(tools, archive('aes.zip'), '')).status).toBe('PASS_WORD_EMPTY')
    expect((await listArchive(tools, archive('aes.zip'), 'wrong')).status).toBe('PASS_WORD_ERROR')
    const listed = await listArchive(tools, archive('aes.zip'), 'Secret')
    expect(listed.status === 'OK' && files(listed.entries)).toEqual(expected)
  })

  it('checks a password even when 7zz cannot be told the entry to test, or reads its name otherwise', async () => {
    for (const name of ['plain-crypto.zip', 'odd-name.zip']) {
      expect([name, (await listArchive(tools, archive(name), '')).status]).toEqual([name, 'PASS_WORD_EMPTY'])
      expect([name, (await listArchive(tools, archive(name), 'wrong')).status]).toEqual([name, 'PASS_WORD_ERROR'])
      expect([name, (await listArchive(tools, archive(name), 'Secret')).status]).toEqual([name, 'OK'])
    }
    // A NUL in a name: 7zz cannot open the zip at all, so no password can be checked (nor the
    // archive unpacked): NOT_SUPPORTED, never an unchecked OK and never a throw.
    expect((await listArchive(tools, archive('nul-name.zip'), 'wrong')).status).toBe('NOT_SUPPORTED')
    expect((await listArchive(tools, archive('nul-name.zip'), 'Secret')).status).toBe('NOT_SUPPORTED')
  })

  it('a 7z with encrypted names asks for its password, refuses a wrong one and lists with the right one', async () => {
    expect((await listArchive(tools, archive('headers.7z'), '')).status).toBe('PASS_WORD_EMPTY')
    expect((await listArchive(tools, archive('headers.7z'), 'wrong')).status).toBe('PASS_WORD_ERROR')
    const listed = await listArchive(tools, archive('headers.7z'), 'Secret')
    expect(listed.status === 'OK' && files(listed.entries)).toEqual(expected)
    // The password reaches 7zz as one line on its input: a line break can never be right.
    expect((await listArchive(tools, archive('headers.7z'), 'Secret\nSecret')).status).toBe('PASS_WORD_ERROR')
    expect((await listArchive(tools, archive('headers.7z'), '-Secret')).status).toBe('PASS_WORD_ERROR')
  })

  it('reads GBK names of a zip without the UTF-8 flag', async () => {
    const listed = await listArchive(tools, archive('gbk.zip'), '')
    expect(listed.status === 'OK' && listed.entries.map((e) => e.name).sort()).toEqual(['中文/', '中文/文件.txt'])
    expect(listed.status === 'OK' && listed.zipEncoding?.name).toBe('gb18030')
  })

  it('says NOT_SUPPORTED for what is no archive, and for a damaged one', async () => {
    expect(await sniffFormat(archive('not-an-archive.zip'))).toBeNull()
    expect((await listArchive(tools, archive('not-an-archive.zip'), '')).status).toBe('NOT_SUPPORTED')
    const damaged = await listArchive(tools, archive('truncated.7z'), '')
    expect(damaged.status).toBe('NOT_SUPPORTED')
  })

  it('a damaged or hostile archive never throws: every byte flip, cut or splice ends in a status (property)', async () => {
    const formats = ['plain.zip', 'solid.7z', 'a.tar.gz', 'aes.zip']
    const originals = Object.fromEntries(formats.map((name) => [name, readFileSync(archive(name))]))
    const hostile = join(dir, 'hostile.bin')
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...formats),
        fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), { maxLength: 8 }),
        fc.option(fc.nat(), { nil: null }),
        async (name, flips, cut) => {
          const bytes = Buffer.from(originals[name]!)
          for (const flip of flips) bytes[flip.at % bytes.length] = flip.value
          writeFileSync(hostile, cut === null ? bytes : bytes.subarray(0, cut % bytes.length))
          const listed = await listArchive(tools, hostile, '')
          expect(['OK', 'PASS_WORD_EMPTY', 'PASS_WORD_ERROR', 'NOT_SUPPORTED']).toContain(listed.status)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('stops the tools when the signal aborts (the list call gives up on an archive too slow to read)', async () => {
    await expect(listArchive(tools, archive('a.tar.xz'), '', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
    await expect(listArchive(tools, archive('solid.7z'), '', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('says FILE_TOO_LARGE past the entries a listing may hold, stopping the tool that lists them', async () => {
    for (const name of ['plain.zip', 'solid.7z', 'a.tar.gz', 'a.tar']) {
      const listed = await listArchive(tools, archive(name), '', { maxEntries: 2 })
      expect([name, listed.status]).toEqual([name, 'FILE_TOO_LARGE'])
    }
    expect((await listArchive(tools, archive('plain.zip'), '', { maxEntries: 50 })).status).toBe('OK')
  })

  it('a missing tool is the installation’s problem (ToolMissing), not the archive’s', async () => {
    await expect(listArchive({ ...tools, sevenZipPath: '/nonexistent/7zz' }, archive('solid.7z'), '')).rejects.toBeInstanceOf(ToolMissing)
  })
})
