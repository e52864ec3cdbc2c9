import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backfillSearchColumns } from '../src/db/migrations.js'
import { createSearchIndexes, dropSearchIndexes } from '../src/db/search-index.js'
import { isPostgres } from '../src/domain/items.js'
import { foldQuery, searchColumns, wordsOf } from '../src/domain/search-text.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'
import { uploadFile } from './upload-kit.js'

// The search conformance suite (issue 15, decision 029): every test runs on SQLite (FTS5) and on
// PostgreSQL (pg_trgm and a words index), through the real HTTP routes.

let t: DriveTestApp
beforeAll(async () => {
  t = await startDriveTestApp()
})
afterAll(async () => {
  await t?.close()
})

async function folder(token: string, name: string, parentId = ''): Promise<{ id: string; name: string }> {
  const reply = await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#folder', name, parent_id: parentId } })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.file
}

async function batch(token: string, action: string, ids: string[], toParentId?: string): Promise<void> {
  const reply = await t.call('POST', `/drive/v1/files:${action}`, { token, body: { ids, ...(toParentId !== undefined ? { to: { parent_id: toParentId } } : {}) } })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
}

interface Result {
  id: string
  name: string
  kind: string
  params: { path: string; parent_name: string; match: string }
}

async function search(token: string, q: string, query: Record<string, string> = {}): Promise<Result[]> {
  const reply = await t.call('GET', '/drive/v1/search', { token, query: { q, ...query } })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  expect(reply.body.kind).toBe('drive#fileList')
  return reply.body.files
}

/** Every page of a search. */
async function searchAll(token: string, q: string, query: Record<string, string> = {}): Promise<Result[]> {
  const all: Result[] = []
  let pageToken = ''
  for (let pages = 0; pages < 100; pages++) {
    const reply = await t.call('GET', '/drive/v1/search', { token, query: { q, ...query, ...(pageToken ? { page_token: pageToken } : {}) } })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    all.push(...reply.body.files)
    pageToken = reply.body.next_page_token
    if (!pageToken) return all
  }
  throw new Error('more than 100 pages')
}

const names = (results: Result[]) => results.map((r) => r.name)

describe('ranking', () => {
  it('ranks exact, prefix, word start, substring, then pinyin, each labelled', async () => {
    const token = await t.signUp()
    for (const name of ['misreported', 'Annual report', 'report', 'Reports 2024', 'no match here']) await folder(token, name)
    const results = await search(token, 'report')
    expect(names(results)).toEqual(['report', 'Reports 2024', 'Annual report', 'misreported'])
    expect(results.map((r) => r.params.match)).toEqual(['exact', 'prefix', 'word', 'substring'])
  })

  it('gives each result its folder path and parent name', async () => {
    const token = await t.signUp()
    const movies = await folder(token, 'Movies')
    const year = await folder(token, '2024', movies.id)
    await folder(token, 'holiday clip', year.id)
    await folder(token, 'holiday notes')
    const results = await search(token, 'holiday')
    const byName = Object.fromEntries(results.map((r) => [r.name, r.params]))
    expect(byName['holiday clip']).toMatchObject({ path: '/Movies/2024', parent_name: '2024' })
    expect(byName['holiday notes']).toMatchObject({ path: '/', parent_name: '' })
  })

  it('folds case, width and accents, in names and in queries', async () => {
    const token = await t.signUp()
    for (const name of ['abc.txt', 'Résumé.pdf', 'ＦＵＬＬ width', 'Straße']) await folder(token, name)
    expect(names(await search(token, 'ＡＢＣ'))).toEqual(['abc.txt'])
    expect(names(await search(token, 'ABC'))).toEqual(['abc.txt'])
    expect(names(await search(token, 'resume'))).toEqual(['Résumé.pdf'])
    expect(names(await search(token, 'RÉSUMÉ'))).toEqual(['Résumé.pdf'])
    expect(names(await search(token, 'full'))).toEqual(['ＦＵＬＬ width'])
    expect(names(await search(token, 'strasse'))).toEqual(['Straße'])
  })

  it('matches Chinese, Japanese and Korean by substring from one character, and Chinese by pinyin', async () => {
    const token = await t.signUp()
    for (const name of ['中国地图.pdf', '我爱中国.txt', '重庆银行年报.xlsx', 'がっこうの写真', '한국어 문서.txt', 'zebra']) await folder(token, name)
    expect(names(await search(token, '中')).sort()).toEqual(['中国地图.pdf', '我爱中国.txt'].sort())
    expect(names(await search(token, '中'))[0]).toBe('中国地图.pdf')
    expect(names(await search(token, '地图'))).toEqual(['中国地图.pdf'])
    expect(names(await search(token, '爱中国'))).toEqual(['我爱中国.txt'])
    expect(names(await search(token, 'こう'))).toEqual(['がっこうの写真'])
    expect(names(await search(token, '写'))).toEqual(['がっこうの写真'])
    expect(names(await search(token, '문서'))).toEqual(['한국어 문서.txt'])
    expect(names(await search(token, '국'))).toEqual(['한국어 문서.txt'])
    expect(names(await search(token, 'zhongguo')).sort()).toEqual(['中国地图.pdf', '我爱中国.txt'].sort())
    const zg = await search(token, 'zg')
    expect(names(zg)).toEqual(['中国地图.pdf'])
    expect(zg[0]!.params.match).toBe('pinyin')
    expect(names(await search(token, 'zgdt'))).toEqual(['中国地图.pdf'])
    // A polyphonic character read in context: 银行 is "yinhang", 重庆 is "chongqing".
    expect(names(await search(token, 'chongqingyinhang'))).toEqual(['重庆银行年报.xlsx'])
    expect(names(await search(token, 'cqyh'))).toEqual(['重庆银行年报.xlsx'])
    // One and two Latin letters match word starts (here: the pinyin initials and "zebra").
    expect(names(await search(token, 'z')).sort()).toEqual(['zebra', '中国地图.pdf'].sort())
  })

  it('pages through every match once, across tiers', async () => {
    const token = await t.signUp()
    const made: string[] = []
    for (let i = 0; i < 9; i++) made.push((await folder(token, `log ${i}`)).name)
    for (let i = 0; i < 8; i++) made.push((await folder(token, `weekly log ${i}`)).name)
    for (let i = 0; i < 7; i++) made.push((await folder(token, `catalog ${i}`)).name)
    const seen = await searchAll(token, 'log', { limit: '4' })
    expect(names(seen).sort()).toEqual([...made].sort())
    expect(new Set(seen.map((r) => r.id)).size).toBe(made.length)
    // Tier by tier: every prefix before any word start, every word start before any substring.
    const order = seen.map((r) => ['exact', 'prefix', 'word', 'substring', 'pinyin'].indexOf(r.params.match))
    expect(order).toEqual([...order].sort((a, b) => a - b))
  })
})

describe('the index follows every change, in the same transaction', () => {
  it('finds an upload at once, a rename by its new name only, a move at its new path; trash, restore and delete', async () => {
    const token = await t.signUp()
    const target = await folder(token, 'Archive')
    const uploaded = await uploadFile(t, token, 'Quarterly figures.csv', new TextEncoder().encode('a,b\n1,2\n'))
    expect(names(await search(token, 'quarterly'))).toEqual(['Quarterly figures.csv'])

    const renamed = await t.call('PATCH', `/drive/v1/files/${uploaded.id}`, { token, body: { name: 'Yearly figures.csv' } })
    expect(renamed.status).toBe(200)
    expect(await search(token, 'quarterly')).toEqual([])
    expect(names(await search(token, 'yearly'))).toEqual(['Yearly figures.csv'])

    await batch(token, 'batchMove', [uploaded.id], target.id)
    expect((await search(token, 'yearly'))[0]!.params.path).toBe('/Archive')

    await batch(token, 'batchCopy', [uploaded.id], '')
    expect((await search(token, 'yearly')).map((r) => r.params.path).sort()).toEqual(['/', '/Archive'])

    await batch(token, 'batchTrash', [target.id])
    expect((await search(token, 'yearly')).map((r) => r.params.path)).toEqual(['/'])
    expect(await search(token, 'archive')).toEqual([])
    await batch(token, 'batchUntrash', [target.id])
    expect((await search(token, 'yearly')).map((r) => r.params.path).sort()).toEqual(['/', '/Archive'])

    await batch(token, 'batchDelete', [target.id])
    expect((await search(token, 'yearly')).map((r) => r.params.path)).toEqual(['/'])
  })

  it('finds each of 20 items created in parallel as soon as its create answers', async () => {
    const token = await t.signUp()
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => folder(token, `parallel item ${i}`)))
    const found = await searchAll(token, 'parallel')
    expect(found.map((r) => r.id).sort()).toEqual(created.map((c) => c.id).sort())
  })

  it('never shows another user\'s items', async () => {
    const alice = await t.signUp()
    const bob = await t.signUp()
    await folder(alice, 'secret plans')
    await folder(alice, '秘密计划')
    expect(await search(bob, 'secret')).toEqual([])
    expect(await search(bob, 'mimi')).toEqual([])
    expect(await search(bob, '秘')).toEqual([])
    expect(names(await search(alice, 'mmjh'))).toEqual(['秘密计划'])
  })
})

describe('filters', () => {
  it('filters by kind, category, size and modified time', async () => {
    const token = await t.signUp()
    await folder(token, 'trip photos')
    const small = await uploadFile(t, token, 'trip photo.jpg', new Uint8Array(10).fill(1))
    await uploadFile(t, token, 'trip video.mp4', new Uint8Array(5000).fill(2))
    await uploadFile(t, token, 'trip notes.txt', new Uint8Array(100).fill(3))
    const json = (value: unknown) => ({ filters: JSON.stringify(value) })
    expect(names(await search(token, 'trip', json({ kind: { eq: 'drive#folder' } })))).toEqual(['trip photos'])
    expect(names(await search(token, 'trip', json({ kind: { eq: 'drive#file' } }))).sort()).toEqual(['trip notes.txt', 'trip photo.jpg', 'trip video.mp4'])
    expect(names(await search(token, 'trip', json({ file_category: { in: 'IMAGE,VIDEO' } }))).sort()).toEqual(['trip photo.jpg', 'trip video.mp4'])
    expect(names(await search(token, 'trip', json({ file_category: { in: ['text'] } })))).toEqual(['trip notes.txt'])
    expect(names(await search(token, 'trip', json({ kind: { eq: 'drive#file' }, size: { gt: 50 } }))).sort()).toEqual(['trip notes.txt', 'trip video.mp4'])
    expect(names(await search(token, 'trip', json({ kind: { eq: 'drive#file' }, size: { lt: '50' } })))).toEqual(['trip photo.jpg'])
    const modified = Date.parse(small.modified_time)
    expect(await search(token, 'trip', json({ modified_time: { gt: new Date(modified + 3_600_000).toISOString() } }))).toEqual([])
    expect((await search(token, 'trip', json({ modified_time: { lt: new Date(modified + 3_600_000).toISOString() } }))).length).toBe(4)
  })
})

describe('bad input', () => {
  it('answers a missing, long or malformed query, filter or token with invalid_argument', async () => {
    const token = await t.signUp()
    await folder(token, 'alpha')
    const bad = async (query: Record<string, string>, field: string) => {
      const reply = await t.call('GET', '/drive/v1/search', { token, query })
      expect(reply.status, JSON.stringify(query)).toBe(400)
      expect(reply.body).toMatchObject({ error: 'invalid_argument' })
      expect(JSON.stringify(reply.body)).toContain(field)
    }
    await bad({}, 'q')
    await bad({ q: '   ' }, 'q')
    await bad({ q: 'x'.repeat(257) }, 'q')
    await bad({ q: 'alpha', limit: '0' }, 'limit')
    await bad({ q: 'alpha', filters: '{' }, 'filters')
    await bad({ q: 'alpha', filters: '{"kind":{"eq":"x"}}' }, 'filters.kind')
    await bad({ q: 'alpha', filters: '{"file_category":{"in":"SPREADSHEET"}}' }, 'filters.file_category')
    await bad({ q: 'alpha', filters: '{"size":{"gt":-1}}' }, 'filters.size')
    await bad({ q: 'alpha', filters: '{"modified_time":{"gt":"yesterday"}}' }, 'filters.modified_time')
    await bad({ q: 'alpha', page_token: 'nonsense' }, 'page_token')
    // A token is bound to its query.
    for (let i = 0; i < 3; i++) await folder(token, `alpha ${i}`)
    const first = await t.call('GET', '/drive/v1/search', { token, query: { q: 'alpha', limit: '1' } })
    expect(first.body.next_page_token).not.toBe('')
    await bad({ q: 'beta', page_token: first.body.next_page_token }, 'page_token')
    // A token re-signed by hand (its hash kept) with a key out of range is refused, never a 5xx.
    const forged = (change: Record<string, unknown>) => Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(first.body.next_page_token, 'base64url').toString()), ...change })).toString('base64url')
    for (const change of [{ t: 1, k: -5 }, { t: 99, k: 1 }, { t: 0, k: ['x'] }, { t: 1, k: 1.5 }, { t: 0, k: 'x'.repeat(2000) }]) await bad({ q: 'alpha', page_token: forged(change) }, 'page_token')
    for (const change of [{ t: 1, k: 10 ** 15 }, { t: 0, k: ['', ''] }, { t: 1, k: 'an id' }]) {
      const reply = await t.call('GET', '/drive/v1/search', { token, query: { q: 'alpha', page_token: forged(change) } })
      expect(reply.status, JSON.stringify(change)).toBe(200)
    }
    expect((await t.call('GET', '/drive/v1/search', { query: { q: 'alpha' } })).status).toBe(401)
    expect((await t.call('GET', '/drive/v1/search/associate', { query: { q: 'alpha' } })).status).toBe(401)
    // The limit is clamped, not refused.
    expect((await t.call('GET', '/drive/v1/search', { token, query: { q: 'alpha', limit: '100000' } })).status).toBe(200)
  })

  it('answers hostile queries (FTS and LIKE syntax, quotes, controls, any unicode) with a list or a 400, never a 5xx', async () => {
    const token = await t.signUp()
    await folder(token, 'ordinary "quoted" 100%_done')
    const hostile = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom('"', '""', '*', 'NEAR(a b)', 'a OR b', 'text : x', '%', '_', '\\', "'; drop table drive_files; --", '%_%', '^a', '{text extra}: x', 'a:*', '!', '&', '<->', '中"国', '\u0000', '\u202e'),
    )
    await fc.assert(
      fc.asyncProperty(hostile, async (q) => {
        const reply = await t.call('GET', '/drive/v1/search', { token, query: { q } })
        expect([200, 400], `${JSON.stringify(q)} ${JSON.stringify(reply.body)}`).toContain(reply.status)
        const suggestions = await t.call('GET', '/drive/v1/search/associate', { token, query: { q } })
        expect([200, 400]).toContain(suggestions.status)
      }),
      { numRuns: 120 },
    )
    // Wildcards are literal: "100%_" finds the name that holds them, "%" alone finds nothing.
    expect(names(await search(token, '100%_done'))).toEqual(['ordinary "quoted" 100%_done'])
    expect(await search(token, '%')).toEqual([])
  })
})

describe('suggestions', () => {
  it('suggests with the ranges to highlight, through pinyin too', async () => {
    const token = await t.signUp()
    const docs = await folder(token, 'Docs')
    await folder(token, 'Hello-World.PDF', docs.id)
    await folder(token, '中国地图.pdf')
    const hello = await t.call('GET', '/drive/v1/search/associate', { token, query: { q: 'wor' } })
    expect(hello.status).toBe(200)
    expect(hello.body.associates).toEqual([{ text: 'Hello-World.PDF', highlight: [[6, 9]], file_id: expect.any(String), kind: 'drive#folder', file_category: 'OTHER', path: '/Docs', match: 'word' }])
    const pinyin = await t.call('GET', '/drive/v1/search/associate', { token, query: { q: 'ditu' } })
    expect(pinyin.body.associates.map((a: { text: string; highlight: number[][] }) => [a.text, a.highlight])).toEqual([['中国地图.pdf', [[2, 4]]]])
    const initials = await t.call('GET', '/drive/v1/search/associate', { token, query: { q: 'zg' } })
    expect(initials.body.associates[0].highlight).toEqual([[0, 2]])
  })

  it('suggests from the first character, at most limit (10 by default, 20 at most)', async () => {
    const token = await t.signUp()
    for (let i = 0; i < 25; i++) await folder(token, `k${i}`)
    const one = await t.call('GET', '/drive/v1/search/associate', { token, query: { q: 'k' } })
    expect(one.body.associates).toHaveLength(10)
    const many = await t.call('GET', '/drive/v1/search/associate', { token, query: { q: 'k', limit: '500' } })
    expect(many.body.associates).toHaveLength(20)
    expect(many.body.associates.every((a: { highlight: number[][] }) => a.highlight[0]![0] === 0 && a.highlight[0]![1] === 1)).toBe(true)
  })
})

describe('properties', () => {
  // A model of the contract: which names a query must find (decision 029), checked against the
  // server over random names and queries cut from them.
  const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
  function shouldFind(name: string, q: string): boolean {
    const folded = foldQuery(q)
    if (folded === '') return false
    const { search_text: text, search_extra: extra } = searchColumns(name)
    const length = [...folded].length
    if (text.includes(` ${folded}`)) return true
    if (length >= 3 && text.includes(folded)) return true
    // One or two CJK characters are words of one character each, adjacent in the words index.
    if (length <= 2 && [...folded].every((c) => CJK.test(c)) && ` ${wordsOf(text)} `.includes(` ${wordsOf(folded)} `)) return true
    if (/^[a-z0-9 ]+$/.test(folded) && /[a-z]/.test(folded) && extra !== '') {
      if (length >= 3) return extra.includes(folded)
      return ` ${extra}`.includes(` ${folded}`)
    }
    return false
  }

  it('finds exactly what the model says, over random names and queries cut from them', async () => {
    const token = await t.signUp()
    const alphabet = fc.constantFrom(...'abcXYZ019 -._éÉｆ中国地图银行がこ한국'.split(''))
    const nameArb = fc.array(alphabet, { minLength: 1, maxLength: 12 }).map((cs) => cs.join('').trim()).filter((n) => n !== '' && n !== '.' && n !== '..')
    const made = new Map<string, string>()
    const batchNames = fc.sample(fc.uniqueArray(nameArb, { minLength: 30, maxLength: 30, selector: (n) => n.normalize('NFC') }), { numRuns: 1, seed: 7 })[0]!
    for (const name of batchNames) {
      const created = await folder(token, name)
      made.set(created.id, created.name)
    }
    const all = [...made.values()]
    await fc.assert(
      fc.asyncProperty(fc.nat(all.length - 1), fc.nat(20), fc.integer({ min: 1, max: 5 }), async (which, start, length) => {
        const source = [...all[which]!]
        const q = source.slice(start % source.length, (start % source.length) + length).join('')
        if (q.trim() === '') return
        const expected = [...made].filter(([, name]) => shouldFind(name, q)).map(([id]) => id).sort()
        const found = (await searchAll(token, q, { limit: '7' })).map((r) => r.id).sort()
        expect(found, JSON.stringify({ q, expected: expected.map((id) => made.get(id)), found: found.map((id) => made.get(id)) })).toEqual(expected)
      }),
      { numRuns: 40 },
    )
  })
})

describe('migration', () => {
  it('indexes the items a drive held before search existed (migration 0008 fills the columns, then builds the index)', async () => {
    const token = await t.signUp()
    const kept = await folder(token, '旧的照片 Old photos')
    const db = t.server.drive.db
    // The drive as it was before 0008: no search columns filled, no index.
    await dropSearchIndexes(db)
    await db.updateTable('drive_files').set({ search_text: '', search_extra: '', search_words: '' }).execute()
    await backfillSearchColumns(db as never, isPostgres(db))
    await createSearchIndexes(db)
    for (const q of ['old', 'photos', '照', '照片', 'jiude', 'jd']) expect((await search(token, q)).map((r) => r.id), q).toEqual([kept.id])
    // And the triggers keep it afterwards.
    await t.call('PATCH', `/drive/v1/files/${kept.id}`, { token, body: { name: 'renamed' } })
    expect(await search(token, 'photos')).toEqual([])
    expect(names(await search(token, 'renamed'))).toEqual(['renamed'])
  })
})
