import { describe, expect, it } from 'vitest'
import { hasFilters, NO_FILTERS, readFilterChoice, toSearchFilters, writeFilterChoice } from './search-filters'

describe('search filters', () => {
  it('reads the choice from the URL, taking an unknown value for no filter', () => {
    expect(readFilterChoice(new URLSearchParams('q=a&kind=folder&category=VIDEO&modified=week&size=huge'))).toEqual({ kind: 'folder', category: 'VIDEO', modified: 'week', size: 'huge' })
    expect(readFilterChoice(new URLSearchParams('kind=movies&category=video'))).toEqual(NO_FILTERS)
  })

  it('writes only the filters that are set, keeping the query', () => {
    const params = writeFilterChoice(new URLSearchParams('q=report&size=small'), { ...NO_FILTERS, category: 'IMAGE' })
    expect(params.toString()).toBe('q=report&category=IMAGE')
    expect(hasFilters(readFilterChoice(params))).toBe(true)
    expect(hasFilters(NO_FILTERS)).toBe(false)
  })

  it('turns a choice into the search call’s filters (drive.md "Search")', () => {
    const now = new Date('2026-03-10T12:00:00.000Z')
    expect(toSearchFilters(NO_FILTERS, now)).toEqual({})
    expect(toSearchFilters({ kind: 'file', category: 'ARCHIVE', modified: 'week', size: 'medium' }, now)).toEqual({
      kind: { eq: 'drive#file' },
      file_category: { in: 'ARCHIVE' },
      modified_time: { gt: '2026-03-03T12:00:00.000Z' },
      size: { gt: 1024 ** 2, lt: 100 * 1024 ** 2 },
    })
    expect(toSearchFilters({ ...NO_FILTERS, kind: 'folder', size: 'huge' }, now)).toEqual({ kind: { eq: 'drive#folder' }, size: { gt: 1024 ** 3 } })
  })
})
