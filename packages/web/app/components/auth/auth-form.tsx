import type { ReactNode, RefObject } from 'react'
import { Alert } from '../ui/alert'
import { Button, type ButtonProps } from '../ui/button'

/**
 * The account forms' frame: no browser validation (the fields show our own messages), submit
 * handled in script, the fields, then the error of the last attempt and the submit button.
 */
export function AuthForm({
  formRef,
  onSubmit,
  error,
  submitLabel,
  loading,
  disabled,
  variant,
  children,
}: {
  formRef: RefObject<HTMLFormElement | null>
  onSubmit(): Promise<void> | void
  error: ReactNode
  submitLabel: ReactNode
  loading: boolean
  disabled?: boolean
  variant?: ButtonProps['variant']
  children: ReactNode
}) {
  return (
    <form
      ref={formRef}
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault()
        void onSubmit()
      }}
    >
      {children}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button type="submit" block loading={loading} disabled={disabled} {...(variant ? { variant } : {})}>
        {submitLabel}
      </Button>
    </form>
  )
}
