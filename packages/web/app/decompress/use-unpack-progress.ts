import { useCallback, useEffect, useState } from 'react'
import { type DriveViewState, useDriveCall } from '../drive/drive-request'
import { parseUnpackProgress, type UnpackProgress } from './unpack-replies'

/** How often a waiting or running unpack is read again. */
export const UNPACK_POLL_MS = 1000
/** The same while the server cannot be reached (offline, restarting). */
export const UNPACK_POLL_OFFLINE_MS = 5000

/** A failed read, as the drive pages show it. */
export type ProgressFailure = Exclude<DriveViewState<unknown>, { status: 'ready' | 'idle' | 'loading' }>

export interface UnpackProgressState {
  /** The last reply; null until the first one (and after `readAgain`). */
  progress: UnpackProgress | null
  /** Why the last read failed; null after a good one. */
  failure: ProgressFailure | null
  /** Reads at once, and polls again while the task waits or runs (after "Try again" or a retry). */
  readAgain(): void
}

const isActive = (progress: UnpackProgress) => progress.phase === 'PHASE_TYPE_PENDING' || progress.phase === 'PHASE_TYPE_RUNNING'

/**
 * Follows one unpack task (`GET /decompress/v1/progress?task_id`): read once the session is
 * known, then again `UNPACK_POLL_MS` after each answer while the task waits or runs. One read at
 * a time: the next is scheduled when the previous one has answered. A finished or failed task
 * stops the polling; so does a failed read, except a lost connection, read again more slowly.
 */
export function useUnpackProgress(taskId: string): UnpackProgressState {
  const { send, ready } = useDriveCall()
  const [progress, setProgress] = useState<UnpackProgress | null>(null)
  const [failure, setFailure] = useState<ProgressFailure | null>(null)
  const [round, setRound] = useState(0)

  useEffect(() => {
    if (!ready) return
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const read = async () => {
      const state = await send({ method: 'GET', path: '/decompress/v1/progress', query: { task_id: taskId } }, parseUnpackProgress, controller.signal)
      if (controller.signal.aborted) return
      if (state.status === 'ready') {
        setProgress(state.data)
        setFailure(null)
        if (isActive(state.data)) timer = setTimeout(() => void read(), UNPACK_POLL_MS)
      } else if (state.status !== 'idle' && state.status !== 'loading') {
        setFailure(state)
        if (state.status === 'offline') timer = setTimeout(() => void read(), UNPACK_POLL_OFFLINE_MS)
      }
    }
    void read()
    return () => {
      controller.abort()
      clearTimeout(timer)
    }
  }, [taskId, send, ready, round])

  const readAgain = useCallback(() => {
    setProgress(null)
    setFailure(null)
    setRound((n) => n + 1)
  }, [])

  return { progress, failure, readAgain }
}
