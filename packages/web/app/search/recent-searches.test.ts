import { describe, expect, it } from 'vitest'
import { readRecentSearches, RECENT_SEARCHES_MAX, withRecentSearch, writeRecentSearches } from './recent-searches'

describe('recent searches', () => {
  it('puts the newest first, moves a repeated one up (any letter case) and keeps the last eight', () => {
    expect(withRecentSearch(['b', 'Report', 'c'], 'report')).toEqual(['report', 'b', 'c'])
    const full = Array.from({ length: RECENT_SEARCHES_MAX }, (_, i) => `q${i}`)
    expect(withRecentSearch(full, 'new')).toEqual(['new', ...full.slice(0, RECENT_SEARCHES_MAX - 1)])
  })

  it('keeps each account its own list on the device, and forgets it when cleared', () => {
    localStorage.clear()
    writeRecentSearches(localStorage, 'u1', ['holiday', 'zg'])
    writeRecentSearches(localStorage, 'u2', ['tax'])
    expect(readRecentSearches(localStorage, 'u1')).toEqual(['holiday', 'zg'])
    expect(readRecentSearches(localStorage, 'u2')).toEqual(['tax'])
    writeRecentSearches(localStorage, 'u1', [])
    expect(readRecentSearches(localStorage, 'u1')).toEqual([])
    expect(localStorage.getItem('cumulus-recent-searches:u1')).toBeNull()
  })

  it('reads nothing from a value it cannot trust, and survives storage that refuses', () => {
    localStorage.setItem('cumulus-recent-searches:u3', '{not json')
    expect(readRecentSearches(localStorage, 'u3')).toEqual([])
    localStorage.setItem('cumulus-recent-searches:u3', JSON.stringify(['ok', 4, '', null]))
    expect(readRecentSearches(localStorage, 'u3')).toEqual(['ok'])
    const refusing = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError') }, removeItem: () => undefined } as unknown as Storage
    expect(() => writeRecentSearches(refusing, 'u3', ['a'])).not.toThrow()
    expect(readRecentSearches(null, 'u3')).toEqual([])
  })
})
