import { type ReactNode, useState } from 'react'
import { useT } from '../i18n/use-locale'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { DialogShell } from './dialog-shell'
import { useDescribeError } from './use-error-text'

export interface ConfirmDialogProps {
  open: boolean
  onOpenChange(open: boolean): void
  title: string
  text: string
  confirmLabel: string
  /** `danger` for what cannot be undone (the default), `primary` for a safe action (restore). */
  tone?: 'danger' | 'primary'
  /** Runs the action; a rejection keeps the dialog open with the error's text. */
  onConfirm(): Promise<void>
  /** The button that closes without acting; default "Cancel". */
  dismissLabel?: string
  /** Options under the text (a checkbox). */
  children?: ReactNode
  /** Where the focus goes on closing, when not back to the opener (see DialogShell). */
  onCloseAutoFocus?: (event: Event) => void
  /** Wrap a long title rather than cut it (see DialogShell). */
  wrapTitle?: boolean
}

/** A question before an action: something that cannot be undone (delete forever, empty the trash), or restoring a trashed item to open it. */
export function ConfirmDialog({ open, onOpenChange, title, text, confirmLabel, tone = 'danger', onConfirm, dismissLabel, children, onCloseAutoFocus, wrapTitle }: ConfirmDialogProps) {
  const { t } = useT()
  const describe = useDescribeError()
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function confirm() {
    setPending(true)
    setError(null)
    try {
      await onConfirm()
      onOpenChange(false)
    } catch (err) {
      setError(await describe(err))
    } finally {
      setPending(false)
    }
  }

  return (
    <DialogShell
      open={open}
      onOpenChange={(next) => {
        if (!next) setError(null)
        onOpenChange(next)
      }}
      title={title}
      description={text}
      testId="confirm-dialog"
      onCloseAutoFocus={onCloseAutoFocus}
      wrapTitle={wrapTitle}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {dismissLabel ?? t('common.cancel')}
          </Button>
          <Button variant={tone} loading={pending} onClick={() => void confirm()}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {error ? <Alert tone="error" className={children ? 'mt-3' : ''}>{error}</Alert> : null}
    </DialogShell>
  )
}
