import { useCallback, useState } from 'react'

/** How many recent searches a device keeps per account. */
export const RECENT_SEARCHES_MAX = 8

const KEY_PREFIX = 'cumulus-recent-searches'

/** Accounts sharing a device each have their own list: one user's queries are not shown to another. */
function keyOf(accountId: string): string {
  return `${KEY_PREFIX}:${accountId}`
}

/** The list with `query` first (an earlier copy, in any letter case, moved up), at most the maximum long. */
export function withRecentSearch(list: readonly string[], query: string): string[] {
  const folded = query.toLocaleLowerCase()
  return [query, ...list.filter((item) => item.toLocaleLowerCase() !== folded)].slice(0, RECENT_SEARCHES_MAX)
}

/** The account's recent searches on this device, newest first; [] when none, unreadable or no storage. */
export function readRecentSearches(storage: Storage | null, accountId: string): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(keyOf(accountId)) ?? '[]')
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string' && item.trim() !== '').slice(0, RECENT_SEARCHES_MAX) : []
  } catch {
    return []
  }
}

/** Stores the list, or forgets it when empty. Storage refusing (full, private mode) only loses the memory. */
export function writeRecentSearches(storage: Storage | null, accountId: string, list: readonly string[]): void {
  try {
    if (list.length === 0) storage?.removeItem(keyOf(accountId))
    else storage?.setItem(keyOf(accountId), JSON.stringify(list))
  } catch {
    // Not remembered: the search itself still runs.
  }
}

function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  } catch {
    return null
  }
}

/** The recent searches of an account on this device, with `remember` and `clear`. */
export function useRecentSearches(accountId: string) {
  const [state, setState] = useState(() => ({ accountId, list: readRecentSearches(browserStorage(), accountId) }))
  // Another account signed in: its own list.
  const list = state.accountId === accountId ? state.list : readRecentSearches(browserStorage(), accountId)
  if (state.accountId !== accountId) setState({ accountId, list })

  const remember = useCallback(
    (query: string) => {
      // Read again first: another tab may have added searches meanwhile.
      const next = withRecentSearch(readRecentSearches(browserStorage(), accountId), query)
      writeRecentSearches(browserStorage(), accountId, next)
      setState({ accountId, list: next })
    },
    [accountId],
  )
  const clear = useCallback(() => {
    writeRecentSearches(browserStorage(), accountId, [])
    setState({ accountId, list: [] })
  }, [accountId])
  return { list, remember, clear }
}
