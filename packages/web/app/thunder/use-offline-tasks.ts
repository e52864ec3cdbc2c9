import type { DriveTask, Phase } from '@cumulus/protocol'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { DriveApi } from '../drive/drive-api'

/** How often the list is read again while a download is waiting or running and the tab is visible. */
export const TASK_POLL_MS = 1500
/** The same while reading fails (offline, server restarting). */
export const TASK_POLL_FAILING_MS = 5000
/** Tasks per page. */
export const TASK_PAGE_SIZE = 50

const ACTIVE_PHASES: readonly Phase[] = ['PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING']

export const isActive = (task: Pick<DriveTask, 'phase'>) => ACTIVE_PHASES.includes(task.phase)

export interface OfflineTasks {
  tasks: readonly DriveTask[]
  loading: boolean
  error: unknown
  hasMore: boolean
  loadMore(): void
  /** Reads the first page again now (after an add, a retry or a removal). */
  refresh(): Promise<void>
  /** Puts a task the server just returned into the list at once. */
  put(task: DriveTask): void
  /** Drops tasks from the list at once. */
  drop(ids: readonly string[]): void
}

function useTabVisible(): boolean {
  const [visible, setVisible] = useState(() => typeof document === 'undefined' || document.visibilityState !== 'hidden')
  useEffect(() => {
    const update = () => setVisible(document.visibilityState !== 'hidden')
    document.addEventListener('visibilitychange', update)
    return () => document.removeEventListener('visibilitychange', update)
  }, [])
  return visible
}

/** Page one replaces what it holds; later pages' tasks stay (without those page one now has). */
function merge(first: readonly DriveTask[], current: readonly DriveTask[], pagesBeyondFirst: boolean): DriveTask[] {
  if (!pagesBeyondFirst) return [...first]
  const ids = new Set(first.map((task) => task.id))
  const tail = current.slice(first.length).filter((task) => !ids.has(task.id))
  return [...first, ...tail]
}

/**
 * The account's offline downloads, newest first. While any is waiting or running and the tab
 * is visible, the first page is read again every `TASK_POLL_MS`; when none is, or the tab is
 * hidden, polling stops (a tab that becomes visible reads once at once).
 */
export function useOfflineTasks(api: DriveApi): OfflineTasks {
  const [tasks, setTasks] = useState<DriveTask[]>([])
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<unknown>(null)
  const [nextPage, setNextPage] = useState('')
  const extraPages = useRef(false)
  const visible = useTabVisible()
  const generation = useRef(0)

  const refresh = useCallback(async () => {
    const mine = ++generation.current
    try {
      const page = await api.listTasks({ limit: TASK_PAGE_SIZE })
      if (mine !== generation.current) return
      setTasks((current) => merge(page.tasks, current, extraPages.current))
      if (!extraPages.current) setNextPage(page.next_page_token)
      setError(null)
    } catch (err) {
      if (mine === generation.current) setError(err)
    } finally {
      if (mine === generation.current) setLoading(false)
    }
  }, [api])

  useEffect(() => {
    void refresh()
  }, [refresh])

  const anyActive = tasks.some(isActive)
  // One timer at a time: the next read is scheduled when the previous one has answered (its
  // new list or its error re-runs this), more slowly while reads fail.
  useEffect(() => {
    if (!anyActive || !visible) return
    const timer = setTimeout(() => void refresh(), error === null ? TASK_POLL_MS : TASK_POLL_FAILING_MS)
    return () => clearTimeout(timer)
  }, [anyActive, visible, error, tasks, refresh])

  // Back from a hidden tab: what happened meanwhile shows at once.
  const wasVisible = useRef(visible)
  useEffect(() => {
    if (visible && !wasVisible.current) void refresh()
    wasVisible.current = visible
  }, [visible, refresh])

  const loadMore = useCallback(() => {
    if (nextPage === '') return
    void api.listTasks({ limit: TASK_PAGE_SIZE, pageToken: nextPage }).then(
      (page) => {
        extraPages.current = true
        setTasks((current) => {
          const ids = new Set(current.map((task) => task.id))
          return [...current, ...page.tasks.filter((task) => !ids.has(task.id))]
        })
        setNextPage(page.next_page_token)
      },
      (err: unknown) => setError(err),
    )
  }, [api, nextPage])

  const put = useCallback((task: DriveTask) => {
    setTasks((current) => (current.some((t) => t.id === task.id) ? current.map((t) => (t.id === task.id ? task : t)) : [task, ...current]))
  }, [])
  const drop = useCallback((ids: readonly string[]) => setTasks((current) => current.filter((task) => !ids.includes(task.id))), [])

  return { tasks, loading, error, hasMore: nextPage !== '', loadMore, refresh, put, drop }
}
