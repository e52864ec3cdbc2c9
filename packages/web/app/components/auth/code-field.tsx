import { useId } from 'react'
import { CODE_LENGTH } from '../../forms/patterns'
import { useT } from '../../i18n/use-locale'
import { Button } from '../ui/button'
import { inputClass } from '../ui/text-field'
import { useCountdown } from './use-countdown'
import type { SentCode } from './use-verification'

export interface CodeFieldProps {
  label: string
  value: string
  onChange(code: string): void
  error?: string | null
  /** Sends (or resends) the code. */
  onSend(): void
  sending: boolean
  /** The code sent to the current address, for the confirmation. */
  sent: SentCode | null
  /** Until when the server will not send another code to this address (epoch ms): the button counts down. */
  resendAtMs: number | null
}

/**
 * A verification code input with its "Send code" button. After a send (or a send the server
 * refused for now) the button counts down to the moment the server accepts another one, and a
 * status line says where the code went.
 */
export function CodeField({ label, value, onChange, error, onSend, sending, sent, resendAtMs }: CodeFieldProps) {
  const { t } = useT()
  const inputId = useId()
  const errorId = `${inputId}-error`
  const statusId = `${inputId}-status`
  const waitSeconds = useCountdown(resendAtMs)
  const buttonLabel = waitSeconds > 0 ? t('auth.code.resendIn', { seconds: waitSeconds }) : sent ? t('auth.code.resend') : t('auth.code.send')
  const describedBy = [error ? errorId : null, sent ? statusId : null].filter(Boolean).join(' ') || undefined
  return (
    <div>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <div className="flex items-stretch gap-2">
        <input
          id={inputId}
          value={value}
          onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH))}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_LENGTH}
          placeholder={t('auth.code.placeholder', { digits: CODE_LENGTH })}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`${inputClass} min-w-0 flex-1 tracking-[0.3em] tabular-nums placeholder:tracking-normal`}
        />
        <Button variant="secondary" className="shrink-0 px-3.5 tabular-nums" onClick={onSend} loading={sending} disabled={waitSeconds > 0} data-testid="send-code">
          {buttonLabel}
        </Button>
      </div>
      {sent ? (
        <p id={statusId} role="status" className="mt-1.5 text-xs text-emerald-700 dark:text-emerald-300">
          {t('auth.code.sent', { address: sent.address, minutes: Math.max(1, Math.round((sent.expiresAtMs - Date.now()) / 60_000)) })}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  )
}
