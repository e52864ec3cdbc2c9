// @vitest-environment node
import { FOLDER_KIND } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { aFile, aFolder, FakeDriveApi } from './fake-drive-api'
import { belongsTo, compareFiles, DEFAULT_ORDER, fetchListingPage, insertFile, listInput, replaceResult } from './listing'

const names = (files: readonly { name: string }[]) => files.map((f) => f.name)

describe('listInput', () => {
  it('asks each view for what drive.md says it holds', () => {
    expect(listInput({ kind: 'folder', folderId: 'f1' }, DEFAULT_ORDER)).toEqual({ parentId: 'f1', limit: 200, orderBy: 'name', direction: 'asc', filters: { trashed: { eq: false }, phase: { eq: 'PHASE_TYPE_COMPLETE' } } })
    expect(listInput({ kind: 'trash' }, { field: 'size', direction: 'desc' }, 'tok')).toEqual({ parentId: '*', limit: 200, orderBy: 'size', direction: 'desc', pageToken: 'tok', filters: { trashed: { eq: true } } })
    expect(listInput({ kind: 'starred' }, DEFAULT_ORDER).filters).toEqual({ trashed: { eq: false }, starred: { eq: true }, phase: { eq: 'PHASE_TYPE_COMPLETE' } })
    expect(listInput({ kind: 'folders', folderId: '' }, DEFAULT_ORDER).filters).toEqual({ trashed: { eq: false }, kind: { eq: FOLDER_KIND } })
  })
})

describe('placing a file among those shown', () => {
  const shown = [aFolder({ name: 'Music' }), aFile({ name: 'file 2.txt' }), aFile({ name: 'file 10.txt' })]

  it('keeps folders first and names in natural order, both directions', () => {
    expect(compareFiles(aFile({ name: 'a' }), aFolder({ name: 'z' }), { field: 'name', direction: 'desc' })).toBeGreaterThan(0)
    expect(names(insertFile(shown, aFile({ name: 'file 3.txt' }), DEFAULT_ORDER, true))).toEqual(['Music', 'file 2.txt', 'file 3.txt', 'file 10.txt'])
    expect(names(insertFile(shown, aFolder({ name: 'Zed' }), DEFAULT_ORDER, true))).toEqual(['Music', 'Zed', 'file 2.txt', 'file 10.txt'])
  })

  it('puts a file exactly where the server lists it: "(" before ".", case folded, past U+FFFF by code point', () => {
    const report = [aFile({ name: 'report.txt' })]
    expect(names(insertFile(report, aFile({ name: 'report(1).txt' }), DEFAULT_ORDER, true))).toEqual(['report(1).txt', 'report.txt'])
    expect(names(insertFile([aFile({ name: 'b' })], aFile({ name: 'A' }), DEFAULT_ORDER, true))).toEqual(['A', 'b'])
    // UTF-16 puts U+1F600 (a surrogate pair) before U+FFEB; UTF-8 and both databases the other way.
    expect(names(insertFile([aFile({ name: '\uffeb' })], aFile({ name: '\u{1f600}' }), DEFAULT_ORDER, true))).toEqual(['\uffeb', '\u{1f600}'])
  })

  it('leaves out a new file whose place is on a page not loaded yet, and appends it when every page is here', () => {
    expect(names(insertFile(shown, aFile({ name: 'zzz.txt' }), DEFAULT_ORDER, false))).toEqual(names(shown))
    expect(names(insertFile(shown, aFile({ name: 'zzz.txt' }), DEFAULT_ORDER, true))).toEqual([...names(shown), 'zzz.txt'])
  })

  it('moves a renamed file to its new place', () => {
    const renamed = { ...shown[2]!, name: 'file 1.txt' }
    expect(names(insertFile(shown, renamed, DEFAULT_ORDER, false))).toEqual(['Music', 'file 1.txt', 'file 2.txt'])
  })

  it('knows which views a file belongs to', () => {
    const file = aFile({ name: 'x', parent_id: 'p', starred: true })
    expect(belongsTo(file, { kind: 'folder', folderId: 'p' })).toBe(true)
    expect(belongsTo(file, { kind: 'folder', folderId: '' })).toBe(false)
    expect(belongsTo(file, { kind: 'starred' })).toBe(true)
    expect(belongsTo({ ...file, trashed: true }, { kind: 'starred' })).toBe(false)
    expect(belongsTo({ ...file, trashed: true }, { kind: 'trash' })).toBe(true)
    expect(belongsTo(file, { kind: 'folders', folderId: 'p' })).toBe(false)
  })
})

describe('search results as a listing', () => {
  it('asks nothing for an empty query, and sends filters only when some are set', async () => {
    const api = new FakeDriveApi([aFile({ name: 'report.pdf' })])
    await expect(fetchListingPage(api, { kind: 'search', query: '', filters: {} }, DEFAULT_ORDER)).resolves.toMatchObject({ files: [], next_page_token: '' })
    expect(api.callsOf('search')).toEqual([])
    await fetchListingPage(api, { kind: 'search', query: 'rep', filters: {} }, DEFAULT_ORDER, 'tok')
    await fetchListingPage(api, { kind: 'search', query: 'rep', filters: { kind: { eq: FOLDER_KIND } } }, DEFAULT_ORDER)
    expect(api.callsOf('search')).toEqual([[{ q: 'rep', limit: 100, pageToken: 'tok' }], [{ q: 'rep', limit: 100, filters: { kind: { eq: FOLDER_KIND } } }]])
  })

  it('keeps a changed result in place with its search params, drops a trashed one, and adds nothing new', () => {
    const a = aFile({ name: 'b report.pdf', params: { path: '/Docs', parent_name: 'Docs', match: 'word' } })
    const b = aFile({ name: 'report.txt', params: { path: '/', parent_name: '', match: 'prefix' } })
    const renamed = replaceResult([b, a], { ...a, name: 'a report.pdf', params: {} })
    expect(renamed.map((f) => [f.name, f.params.path])).toEqual([['report.txt', '/'], ['a report.pdf', '/Docs']])
    expect(names(replaceResult([b, a], { ...a, trashed: true }))).toEqual(['report.txt'])
    const files = [b, a]
    expect(replaceResult(files, aFile({ name: 'new report.pdf' }))).toBe(files)
  })
})
