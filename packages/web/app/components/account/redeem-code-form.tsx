import { type FormEvent, useState } from 'react'
import { useLocale, useT } from '../../i18n/use-locale'
import { pluralForm } from '../../drive/use-plural'
import { refreshSession } from '../../session/session-store'
import { Alert } from '../ui/alert'
import { Button } from '../ui/button'
import { TextField } from '../ui/text-field'
import { formatDate } from './format'
import { useAccountAction } from './use-account-action'

/**
 * Redeems a membership activation code (POST /vip/v1/order/activation-code), then reloads the
 * session so the card above shows the new plan and expiry. The server reads the code however
 * it is typed (case, spaces, dashes, O for 0), so the field only trims it.
 */
export function RedeemCodeForm() {
  const { t } = useT()
  const locale = useLocale()
  const { run, pending, error, setError } = useAccountAction()
  const [code, setCode] = useState('')
  const [done, setDone] = useState<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setDone(null)
    const typed = code.trim()
    if (typed === '') {
      setError(t('accountHome.vip.redeemEmpty'))
      return
    }
    const result = await run(async (client) => {
      const reply = await client.redeemActivationCode(typed)
      await refreshSession(client)
      return reply
    })
    if (!result.ok) return
    const date = formatDate(new Date(result.value.data.expire), locale) ?? result.value.data.expire
    const translate = t as unknown as (key: string, values: Record<string, string | number>) => string
    setDone(translate(`accountHome.vip.redeemed.${pluralForm(locale, result.value.add_days)}`, { count: result.value.add_days.toLocaleString(locale), date }))
    setCode('')
  }

  return (
    <form onSubmit={submit} noValidate data-testid="redeem-code-form" className="mt-5 space-y-3 rounded-xl bg-white/80 p-4 ring-1 ring-slate-200 ring-inset dark:bg-slate-950/40 dark:ring-slate-700">
      <h3 className="text-sm font-semibold">{t('accountHome.vip.redeemTitle')}</h3>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <TextField
            label={t('accountHome.vip.redeemLabel')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            placeholder="XXXX-XXXX-XXXX-XXXX"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            hint={t('accountHome.vip.redeemHint')}
          />
        </div>
        <Button type="submit" loading={pending} className="sm:mt-6">
          {t('accountHome.vip.redeemSubmit')}
        </Button>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {done ? (
        <Alert tone="success">
          <span data-testid="redeem-done">{done}</span>
        </Alert>
      ) : null}
    </form>
  )
}
