import { useState } from 'react'
import { PATTERN_VALUES } from '../../forms/patterns'
import { useT } from '../../i18n/use-locale'
import { onDemand, useOnDemand } from '../lazy/on-demand'
import { Spinner } from '../ui/spinner'
import { TextField } from '../ui/text-field'
import { ContactSwitch } from './contact-switch'
import type { Verification } from './use-verification'

/** The phone field and its country table: fetched when a form with this choice shows, not with the page. */
const phoneField = onDemand(() => import('./phone-field'))

/** The e-mail-or-phone choice and the address input of a verification flow. */
export function ContactFields({ legend, verification }: { legend: string; verification: Verification }) {
  const { t } = useT()
  const [phoneFailed, setPhoneFailed] = useState(false)
  // Loaded as soon as the choice shows, so it is there when "Phone" is picked; after a failed
  // load (offline), picking "Phone" again retries.
  const phone = useOnDemand(phoneField, !phoneFailed || verification.kind === 'phone', () => setPhoneFailed(true))
  const error = verification.addressError ? t(verification.addressError, PATTERN_VALUES) : null
  return (
    <>
      <ContactSwitch
        legend={legend}
        value={verification.kind}
        onChange={(kind) => {
          if (kind === 'phone') setPhoneFailed(false)
          verification.setKind(kind)
        }}
      />
      {verification.kind === 'email' ? (
        <TextField
          label={t('auth.fields.email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="off"
          spellCheck={false}
          value={verification.email}
          onChange={(event) => verification.setEmail(event.target.value)}
          error={error}
        />
      ) : phone ? (
        <phone.PhoneField label={t('auth.fields.phone')} value={verification.phone} onChange={verification.setPhone} error={error} />
      ) : (
        <div>
          <p className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">{t('auth.fields.phone')}</p>
          <div role="status" className="flex h-11 items-center justify-center rounded-xl border border-slate-300 text-brand-600 dark:border-slate-600 dark:text-brand-300">
            <Spinner className="size-5" />
            <span className="sr-only">{t('common.loading')}</span>
          </div>
        </div>
      )}
    </>
  )
}
