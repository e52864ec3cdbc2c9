import { type CSSProperties, useCallback, useEffect, useRef, useState } from 'react'
import { useT } from '../i18n/use-locale'
import { AlertIcon, CheckIcon, CloseIcon } from './icons'

export interface Toast {
  id: number
  text: string
  tone: 'success' | 'error'
  /** An undo button (moving to the trash). */
  undo?: () => void
}

/** How long a message stays: long enough to read and reach "Undo". */
const TOAST_MS = 6_000
const TOAST_WITH_UNDO_MS = 10_000

let nextToast = 1

/** The page's short messages after an action. Errors stay until dismissed. */
export function useToasts() {
  const [toasts, setToasts] = useState<Toast[]>([])
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>())
  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id))
    timers.current.delete(id)
    setToasts((current) => current.filter((toast) => toast.id !== id))
  }, [])
  const show = useCallback(
    (toast: Omit<Toast, 'id'>) => {
      const id = nextToast++
      // Newest last; at most three on screen.
      setToasts((current) => [...current.slice(-2), { ...toast, id }])
      if (toast.tone === 'success') timers.current.set(id, setTimeout(() => dismiss(id), toast.undo ? TOAST_WITH_UNDO_MS : TOAST_MS))
      return id
    },
    [dismiss],
  )
  useEffect(() => {
    const pending = timers.current
    return () => pending.forEach((timer) => clearTimeout(timer))
  }, [])
  return { toasts, show, dismiss }
}

/** Space between the toasts and what they sit on (the window's edge, or the upload panel on phones). */
const TOAST_GAP_PX = 16

/**
 * The messages, bottom left (bottom, full width on phones, above the upload panel's `raisedBy`
 * pixels, which span the width there), announced as they come.
 */
export function Toasts({ toasts, onDismiss, raisedBy = 0 }: { toasts: readonly Toast[]; onDismiss(id: number): void; raisedBy?: number }) {
  const { t } = useT()
  return (
    <section
      aria-label={t('drive.toast.region')}
      className="pointer-events-none fixed inset-x-3 bottom-[var(--toasts-bottom)] z-40 flex flex-col items-center gap-2 sm:inset-x-auto sm:bottom-6 sm:left-6 sm:items-start"
      style={{ '--toasts-bottom': `${raisedBy + TOAST_GAP_PX}px` } as CSSProperties}
    >
      <div aria-live="polite" className="contents">
        {toasts
          .filter((toast) => toast.tone === 'success')
          .map((toast) => (
            <ToastCard key={toast.id} toast={toast} onDismiss={onDismiss} dismissLabel={t('drive.toast.dismiss')} undoLabel={t('drive.toast.undo')} />
          ))}
      </div>
      {toasts
        .filter((toast) => toast.tone === 'error')
        .map((toast) => (
          <div key={toast.id} role="alert" className="contents">
            <ToastCard toast={toast} onDismiss={onDismiss} dismissLabel={t('drive.toast.dismiss')} undoLabel={t('drive.toast.undo')} />
          </div>
        ))}
    </section>
  )
}

function ToastCard({ toast, onDismiss, dismissLabel, undoLabel }: { toast: Toast; onDismiss(id: number): void; dismissLabel: string; undoLabel: string }) {
  const error = toast.tone === 'error'
  return (
    <div data-testid="toast" data-tone={toast.tone} className={`pointer-events-auto flex w-full max-w-md items-center gap-3 rounded-xl px-4 py-3 text-sm shadow-lg ring-1 sm:w-auto sm:min-w-80 ${error ? 'bg-red-50 text-red-900 ring-red-200 dark:bg-red-950 dark:text-red-100 dark:ring-red-900' : 'bg-slate-900 text-white ring-slate-900/10 dark:bg-slate-100 dark:text-slate-900'}`}>
      {error ? <AlertIcon className="size-5 shrink-0" /> : <CheckIcon className="size-5 shrink-0 text-emerald-400 dark:text-emerald-600" />}
      <p className="min-w-0 flex-1 break-words">{toast.text}</p>
      {toast.undo ? (
        <button
          type="button"
          onClick={() => {
            toast.undo?.()
            onDismiss(toast.id)
          }}
          className="shrink-0 rounded-md px-2 py-1 font-semibold text-brand-300 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-brand-400 dark:text-brand-700 dark:hover:bg-slate-900/10"
        >
          {undoLabel}
        </button>
      ) : null}
      <button type="button" aria-label={dismissLabel} onClick={() => onDismiss(toast.id)} className="-mr-1 inline-flex size-8 shrink-0 items-center justify-center rounded-md opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-brand-400">
        <CloseIcon className="size-4" />
      </button>
    </div>
  )
}
