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
  /** A code went to this address moments ago from another tab or device: said under the field. */
  sentElsewhere?: boolean
}

/**
 * A verification code input with its "Send code" button. After a send (or a send the server
 * refused for now) the button counts down to the moment the server accepts another one, and a
 * status line says where the code went.
 */
export function CodeField({ label, value, onChange, error, onSend, sending, sent, resendAtMs, sentElsewhere = false }: CodeFieldProps) {
  const { t } = useT()
  const inputId = useId()
  const errorId = `${inputId}-error`
  const statusId = `${inputId}-status`
  const waitSeconds = useCountdown(resendAtMs)
  const buttonLabel = waitSeconds > 0 ? t(sent ? 'auth.code.resendIn' : 'auth.code.sendIn', { seconds: waitSeconds }) : sent ? t('auth.code.resend') : t('auth.code.send')
  const elsewhere = sentElsewhere && waitSeconds > 0
  const describedBy = [error ? errorId : null, sent || elsewhere ? statusId : null].filter(Boolean).join(' ') || undefined
  return (
    <div>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      {/* Side by side while both fit; on a narrow screen, or with a long countdown label (Malay),
          the button goes under the input and takes the line, rather than crushing the input. */}
      <div className="flex flex-wrap items-stretch gap-2">
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
          className={`${inputClass} min-w-0 flex-[999_1_10rem] tracking-[0.3em] tabular-nums placeholder:tracking-normal`}
        />
        <Button variant="secondary" className="flex-[1_0_auto] px-3.5 tabular-nums" onClick={onSend} loading={sending} disabled={waitSeconds > 0} data-testid="send-code">
          {buttonLabel}
        </Button>
      </div>
      {sent ? (
        <p id={statusId} role="status" className="mt-1.5 text-xs text-emerald-700 dark:text-emerald-300">
          {t('auth.code.sent', { address: sent.address, minutes: Math.max(1, Math.round((sent.expiresAtMs - Date.now()) / 60_000)) })}
        </p>
      ) : elsewhere ? (
        <p id={statusId} role="status" className="mt-1.5 text-xs text-slate-700 dark:text-slate-300">
          {t('auth.code.recentlySent')}
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
