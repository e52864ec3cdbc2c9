import * as Dialog from '@radix-ui/react-dialog'
import { type ReactNode, useRef } from 'react'
import { useT } from '../i18n/use-locale'
import { CloseIcon } from './icons'

export interface DialogShellProps {
  open: boolean
  onOpenChange(open: boolean): void
  title: string
  /** Read by screen readers with the title; shown under it. */
  description?: ReactNode
  children: ReactNode
  /** Buttons at the bottom (right-aligned; stacked full-width on phones). */
  footer?: ReactNode
  size?: 'sm' | 'md' | 'lg'
  /** Where the focus goes when the dialog opens (a field); Radix's first focusable otherwise. */
  onOpenAutoFocus?: (event: Event) => void
  /**
   * Where the focus goes when the dialog closes; call `event.preventDefault()` after moving it.
   * Otherwise it returns to the opener, or (gone) to the drive list's current row.
   */
  onCloseAutoFocus?: (event: Event) => void
  /**
   * Wrap a long title instead of cutting it with an ellipsis, for titles whose end matters (the
   * device in "Sign out Chrome on Windows?" on a phone). The default keeps a title naming a long
   * file to one line.
   */
  wrapTitle?: boolean
  testId?: string
}

const WIDTHS = { sm: 'sm:max-w-md', md: 'sm:max-w-lg', lg: 'sm:max-w-2xl' } as const

/**
 * The drive's dialogs: a Radix dialog (focus trap, Escape, the focus back to the opener), a
 * sheet from the bottom on phones and a centred card elsewhere, in both themes.
 */
export function DialogShell({ open, onOpenChange, title, description, children, footer, size = 'sm', onOpenAutoFocus, onCloseAutoFocus, wrapTitle = false, testId }: DialogShellProps) {
  const { t } = useT()
  // What had the focus when the dialog opened (noted while rendering, before the dialog takes
  // it). A dialog opened from a row's menu was opened by a menu item that is gone by now.
  const opener = useRef<Element | null>(null)
  const wasOpen = useRef(false)
  if (open && !wasOpen.current && typeof document !== 'undefined') opener.current = document.activeElement
  wasOpen.current = open
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-[2px]" />
        <Dialog.Content
          data-testid={testId}
          onOpenAutoFocus={onOpenAutoFocus}
          onCloseAutoFocus={(event) => {
            onCloseAutoFocus?.(event)
            if (event.defaultPrevented) return
            // Radix gives the focus back only to a Dialog.Trigger, and these dialogs are opened by
            // plain buttons: without this the focus would fall to <body>.
            if (opener.current instanceof HTMLElement && opener.current.isConnected && opener.current !== document.body) {
              event.preventDefault()
              opener.current.focus({ preventScroll: true })
              return
            }
            // The opener is gone (a row's menu item): the list's current row.
            const row = document.querySelector<HTMLElement>('[data-testid="drive-row"][tabindex="0"]')
            if (!row) return
            event.preventDefault()
            row.focus({ preventScroll: true })
          }}
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={`fixed inset-x-0 bottom-0 z-50 flex max-h-[92dvh] flex-col rounded-t-2xl bg-white shadow-2xl ring-1 ring-slate-900/10 outline-none sm:inset-x-auto sm:top-1/2 sm:bottom-auto sm:left-1/2 sm:w-[calc(100vw-2rem)] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl dark:bg-slate-900 dark:ring-white/10 ${WIDTHS[size]}`}
        >
          <div className="flex items-start gap-3 px-5 pt-5 pb-3">
            <div className="min-w-0 flex-1">
              <Dialog.Title className={`${wrapTitle ? 'break-words' : 'truncate'} text-lg font-semibold text-slate-900 dark:text-white`}>{title}</Dialog.Title>
              {description ? <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</Dialog.Description> : null}
            </div>
            <Dialog.Close className="-mt-1 -mr-2 inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white" aria-label={t('common.close')}>
              <CloseIcon />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 pb-2">{children}</div>
          {footer ? <div className="flex flex-col-reverse gap-2 px-5 pt-3 pb-5 sm:flex-row sm:justify-end">{footer}</div> : <div className="pb-3" />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
