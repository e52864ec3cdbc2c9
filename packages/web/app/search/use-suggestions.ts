import { ASSOCIATE_LIMIT_DEFAULT, type DriveAssociate, SEARCH_QUERY_MAX_CHARS } from '@cumulus/protocol'
import { useEffect, useRef, useState } from 'react'
import type { DriveApi } from '../drive/drive-api'

/** Typing pauses this long before suggestions are asked for: a burst of keys makes one call. */
export const SUGGEST_DELAY_MS = 130

export interface SuggestionState {
  /** The query the suggestions are for ('' when none was asked). */
  query: string
  suggestions: readonly DriveAssociate[]
  /** `loading` keeps the previous query's suggestions on show until the new ones arrive. */
  status: 'idle' | 'loading' | 'ready' | 'error'
}

const IDLE: SuggestionState = Object.freeze({ query: '', suggestions: [], status: 'idle' })

/**
 * Suggestions for what is typed, from `GET /drive/v1/search/associate`, asked a short pause
 * after the last key. Only the latest query's reply is shown: every change takes a ticket, and
 * a reply whose ticket is no longer the latest (a slow answer to "qu" arriving after the one to
 * "quar") is dropped. An empty query, or one longer than the server takes, asks nothing.
 */
export function useSuggestions(api: Pick<DriveApi, 'associate'>, text: string, limit = ASSOCIATE_LIMIT_DEFAULT): SuggestionState {
  const query = text.trim()
  const [state, setState] = useState<SuggestionState>(IDLE)
  const latest = useRef(0)

  useEffect(() => {
    const ticket = ++latest.current
    if (query === '' || query.length > SEARCH_QUERY_MAX_CHARS) {
      setState(IDLE)
      return
    }
    setState((current) => (current.status === 'loading' ? current : { ...current, status: 'loading' }))
    const timer = setTimeout(() => {
      api.associate(query, { limit }).then(
        (reply) => {
          if (ticket === latest.current) setState({ query, suggestions: readable(reply.associates), status: 'ready' })
        },
        () => {
          if (ticket === latest.current) setState({ query, suggestions: [], status: 'error' })
        },
      )
    }, SUGGEST_DELAY_MS)
    return () => clearTimeout(timer)
  }, [api, query, limit])

  return state
}

/** The suggestions the box can show (an entry without a name or an id is dropped, never guessed at). */
function readable(associates: unknown): DriveAssociate[] {
  if (!Array.isArray(associates)) return []
  return (associates as DriveAssociate[]).filter((item) => typeof item?.text === 'string' && item.text !== '' && typeof item.file_id === 'string' && item.file_id !== '').map((item) => ({ ...item, highlight: Array.isArray(item.highlight) ? item.highlight : [] }))
}
