import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExtractFailed, type ExtractInput, extractArchive, regularFiles } from './extract.js'

// The bounds of extract.ts on real archives, with declared sizes smaller than the real ones (as
// a lying header would declare them): the kernel's file size limit and the staging count.
describe('extractArchive', () => {
  let dir: string
  const tools = { sevenZipPath: '7zz', unarPath: 'unar' }
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cumulus-extract-'))
    const src = join(dir, 'src')
    mkdirSync(src)
    for (let i = 0; i < 20; i++) writeFileSync(join(src, `f${i}.bin`), Buffer.alloc(100_000, i))
    execFileSync('7zz', ['a', '-tzip', join(dir, 'many.zip'), '.'], { cwd: src, stdio: 'ignore' })
    execFileSync('python3', ['-c', `import gzip, os; open('${join(dir, 'big.gz')}', 'wb').write(gzip.compress(os.urandom(1 << 20) * 64, 1))`])
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const input = (out: string, overrides: Partial<ExtractInput>): ExtractInput => ({
    archivePath: join(dir, 'many.zip'),
    container: 'zip',
    listedFormat: 'zip',
    password: '',
    zipEncoding: null,
    outDir: out,
    names: null,
    excluded: [],
    rarIndexes: null,
    maxFileBytes: 100_000,
    maxTotalBytes: 2_000_000,
    signal: new AbortController().signal,
    ...overrides,
  })
  const outDir = (name: string) => {
    const out = join(dir, name, 'out')
    mkdirSync(out, { recursive: true })
    return out
  }

  it('unpacks within the bounds', async () => {
    const out = outDir('ok')
    await extractArchive(tools, input(out, {}))
    expect(readdirSync(out)).toHaveLength(20)
  })

  it('is stopped by the kernel when a file grows past the largest declared entry', async () => {
    const out = outDir('file-limit')
    await expect(extractArchive(tools, input(out, { maxFileBytes: 10_000 }))).rejects.toMatchObject({ reason: 'overrun' })
  })

  it('fails when the files together pass the declared total', async () => {
    const out = outDir('total-limit')
    const failure = await extractArchive(tools, input(out, { maxTotalBytes: 500_000 })).catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(ExtractFailed)
    expect((failure as ExtractFailed).reason).toBe('overrun')
  })

  it('stops writing a compressed single file when aborted, and rejects (never an unhandled rejection)', async () => {
    const out = outDir('aborted')
    const controller = new AbortController()
    const run = extractArchive(tools, input(out, { archivePath: join(dir, 'big.gz'), container: 'gzip', listedFormat: 'gzip', singleTarget: join(out, 'big'), maxFileBytes: 64 << 20, maxTotalBytes: 64 << 20, signal: controller.signal }))
    setTimeout(() => controller.abort(), 20)
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('unpacks only the named entries', async () => {
    const out = outDir('named')
    await extractArchive(tools, input(out, { names: ['f3.bin', 'f7.bin'] }))
    const found = []
    for await (const file of regularFiles(out)) found.push(file.segments.map(String).join('/'))
    expect(found.sort()).toEqual(['f3.bin', 'f7.bin'])
  })
})
